// @vitest-environment jsdom
// What a display shows besides pages: a takeover's message (a warning sign and the time it began on the screen's
// clock, Japanese marked as such so the browser breaks it between phrases, sized to fill the screen), and a screen
// with nothing assigned, which says so and what to do.
import { describe, expect, it } from 'vitest';
import { IdleScreen, languageOfText, TakeoverMessage } from '../src/features/display/components/display-screens';
import { FIT_MAX, FIT_MIN, largestFitting } from '../src/features/display/model/fit-text';
import { byTestId, render, setupDom } from './dom-harness';

const dom = setupDom();

describe('a takeover’s message on the display', () => {
  it('has a warning sign and the time it began on the screen’s clock; Japanese words are marked Japanese', async () => {
    await render(
      <TakeoverMessage
        title="地震発生"
        body="エレベーターは使わず、机の下に身を隠してください。"
        startsAt="2026-11-27T05:20:00.000Z"
        timeZone="Asia/Tokyo"
      />,
    );
    const box = byTestId('display-message');
    expect(box?.getAttribute('role')).toBe('alert');
    // the warning sign is the shared SVG icon (an emoji font may be missing on a kiosk), hidden from screen readers
    expect(box?.querySelector('.pc-display__warning svg[data-icon="alert"][aria-hidden="true"]')).not.toBeNull();
    expect(byTestId('display-message-time')?.textContent).toBe('Since 2:20 PM');
    expect(box?.querySelector('h1')?.getAttribute('lang')).toBe('ja');
    expect(box?.querySelector('p.pc-display__message-body')?.getAttribute('lang')).toBe('ja');
  });

  it('leaves other words to the page’s language', () => {
    expect(languageOfText('Evacuate now')).toBeUndefined();
    expect(languageOfText('Évacuez')).toBeUndefined();
    expect(languageOfText('ただちに避難')).toBe('ja');
  });

  it('takes the largest type that fits: a short message grows, a long one shrinks', () => {
    // as if the message fitted up to a scale: the search finds it within 1/100, and keeps to its bounds
    for (const limit of [0.73, 1, 2.2]) expect(Math.abs(largestFitting((s) => s <= limit) - limit)).toBeLessThan(0.011);
    expect(largestFitting(() => true)).toBe(FIT_MAX);
    expect(largestFitting(() => false)).toBe(FIT_MIN);
  });
});

describe('a display with nothing assigned', () => {
  it('says so, with its name and what to do, in the display’s language', async () => {
    await render(<IdleScreen name="Back office" unassigned />);
    const idle = byTestId('display-idle');
    expect(idle?.dataset.unassigned).toBe('true');
    expect(idle?.querySelector('h1')?.textContent).toBe('Nothing is assigned to this screen yet');
    expect(idle?.textContent).toContain('“Change what it plays” on “Back office”');
    await dom.i18n().changeLanguage('ja');
    await render(<IdleScreen name="Back office" unassigned />);
    expect(byTestId('display-idle')?.querySelector('h1')?.textContent).toBe(
      'このスクリーンにはまだ何も割り当てられていません',
    );
  });

  it('while its content loads (or between its day parts) shows only its name, quietly', async () => {
    await render(<IdleScreen name="Back office" unassigned={false} />);
    expect(byTestId('display-idle')?.textContent).toBe('Back office');
    expect(byTestId('display-idle')?.querySelector('h1')).toBeNull();
  });
});
