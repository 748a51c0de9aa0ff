// @vitest-environment jsdom
// The player's page controls on a touch screen: Previous and Next are off when there is no other page (a one-page
// file), and a swipe on the player turns the page (and the browser's own sideways gestures are off meanwhile).
import { act, useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { PlayerControls } from '../src/features/signage/components/player-chrome';
import { useSwipePages } from '../src/features/signage/model/use-player-environment';
import { byTestId, click, render, setupDom } from './dom-harness';

setupDom();

function Swipeable({ onTurn, enabled }: { onTurn: (d: 'next' | 'previous') => void; enabled: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useSwipePages(ref, onTurn, enabled);
  return <div ref={ref} data-testid="swipe-area" />;
}

/** a finger on the glass: down at x0, up at x1 at once (jsdom has no PointerEvent: its fields are set) */
async function swipe(el: HTMLElement | null, x0: number, x1: number, pointerType = 'touch') {
  const event = (type: string, x: number) =>
    Object.assign(new Event(type, { bubbles: true }), { clientX: x, clientY: 300, pointerType });
  await act(async () => {
    el?.dispatchEvent(event('pointerdown', x0));
    el?.dispatchEvent(event('pointerup', x1));
  });
}

describe('the page controls', () => {
  it('are off on a one-page file, on otherwise', async () => {
    const turns: string[] = [];
    const controls = (disabled: boolean) => (
      <PlayerControls
        current={1}
        total={1}
        onPrevious={() => turns.push('previous')}
        onNext={() => turns.push('next')}
        disabled={disabled}
      />
    );
    await render(controls(true));
    expect(byTestId('player-previous')?.hasAttribute('disabled')).toBe(true);
    expect(byTestId('player-next')?.hasAttribute('disabled')).toBe(true);
    await click(byTestId('player-next'));
    expect(turns).toEqual([]);
    await render(controls(false));
    await click(byTestId('player-next'));
    expect(turns).toEqual(['next']);
    // on a phone the words hide behind the icons: the buttons keep them as their names
    expect(byTestId('player-next')?.getAttribute('aria-label')).toBe('Next page');
  });
});

describe('swiping on the player', () => {
  it('turns the page, to the left the next one; a mouse drag does not; the browser’s sideways gesture is off', async () => {
    const turns: string[] = [];
    await render(<Swipeable onTurn={(d) => turns.push(d)} enabled />);
    expect(document.documentElement.style.overscrollBehaviorX).toBe('none');
    await swipe(byTestId('swipe-area'), 300, 100);
    await swipe(byTestId('swipe-area'), 100, 300);
    await swipe(byTestId('swipe-area'), 300, 100, 'mouse');
    expect(turns).toEqual(['next', 'previous']);
  });
  it('does nothing when there is no other page', async () => {
    const turns: string[] = [];
    await render(<Swipeable onTurn={(d) => turns.push(d)} enabled={false} />);
    await swipe(byTestId('swipe-area'), 300, 100);
    expect(turns).toEqual([]);
  });
});
