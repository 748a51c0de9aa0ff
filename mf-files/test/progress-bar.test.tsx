// @vitest-environment jsdom
// The upload dialog's two bars (the bytes sent, then the pages converted) each show their name, and are named by it.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { ProgressBar } from '../src/features/library/components/progress-bar';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('a progress bar', () => {
  it('shows its name and what it has reached, and is named by them', () => {
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    act(() =>
      root.render(
        <>
          <ProgressBar value={100} label="1. Sending the file" detail="100% sent" />
          <ProgressBar value={null} label="2. Turning the pages into images" detail="3 / 14" />
        </>,
      ),
    );
    const bars = [...host.querySelectorAll('[role="progressbar"]')];
    const nameOf = (bar: Element) => document.getElementById(bar.getAttribute('aria-labelledby') ?? '')?.textContent;
    expect(bars.map(nameOf)).toEqual(['1. Sending the file', '2. Turning the pages into images']);
    expect(bars.map((b) => b.getAttribute('aria-valuetext'))).toEqual(['100% sent', '3 / 14']);
    expect(host.textContent).toContain('1. Sending the file100% sent');
    expect(bars[1]?.hasAttribute('aria-valuenow')).toBe(false);
    act(() => root.unmount());
    host.remove();
  });
});
