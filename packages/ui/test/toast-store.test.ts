import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  getToasts,
  removeToast,
  shouldDismissOnSwipe,
  TOAST_DURATION_MS,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY_MS,
  toast,
} from '../src/toast/toast-store';

describe('toaster', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    removeToast();
    vi.useRealTimers();
  });

  it('uses the spec constants', () => {
    expect([TOAST_LIMIT, TOAST_DURATION_MS, TOAST_REMOVE_DELAY_MS]).toEqual([1, 5000, 1_000_000]);
  });

  it('shows at most one toast: the newest replaces the older', () => {
    toast({ title: 'first' });
    toast({ title: 'second', variant: 'destructive' });
    const shown = getToasts();
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ title: 'second', variant: 'destructive', open: true });
  });

  it('closes after 5000 ms and removes it 1,000,000 ms after that', () => {
    toast({ title: 'hello', description: 'world' });
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect(getToasts()[0]?.open).toBe(true);
    vi.advanceTimersByTime(1);
    expect(getToasts()[0]?.open).toBe(false);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(getToasts()).toHaveLength(0);
  });

  it('a dismissed toast stays (closed) until the removal delay has passed', () => {
    const handle = toast({ title: 'bye', action: { label: 'undo', onClick: () => {} } });
    handle.dismiss();
    expect(getToasts()[0]).toMatchObject({ id: handle.id, open: false });
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS);
    expect(getToasts()).toHaveLength(0);
  });

  it('a replaced toast does not remove its successor later', () => {
    toast({ title: 'old' }).dismiss();
    toast({ title: 'new', duration: 60 * 60 * 1000 });
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS + 1);
    expect(getToasts().map((t) => t.title)).toEqual(['new']);
  });

  it('dismisses on a swipe to the right of 50 px or more', () => {
    expect(shouldDismissOnSwipe(49)).toBe(false);
    expect(shouldDismissOnSwipe(50)).toBe(true);
    expect(shouldDismissOnSwipe(-80)).toBe(false);
  });
});
