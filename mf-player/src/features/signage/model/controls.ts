// The player's controls on a screen that plays: a touch screen has no keys and no mouse to move, so a tap shows the
// controls (header with pause and leave, bottom page controls) as a mouse move does on a desktop, and they hide again
// after a few seconds with neither. Plain functions and a small timer machine, so they can be tested without a browser.

/** How long the controls stay after the last touch or mouse move while playing. */
export const CONTROLS_VISIBLE_MS = 3000;

/**
 * Whether an event should show the controls: a tap or a click (once it is over: the tap that shows a control never
 * presses it, whatever appears under the finger), and a mouse that moves. A finger sliding on the glass is not one.
 */
export function revealsControls(event: { type: string; pointerType?: string }): boolean {
  if (event.type === 'click') return true;
  if (event.type === 'pointermove') return event.pointerType === 'mouse';
  return false;
}

export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Shows the controls on each `poke` and hides them `hideAfterMs` after the last one; `stop` hides them at once
 * (playback stopped: the paused player shows its header by itself). `onChange` runs only when visibility changes.
 */
export function controlsReveal(
  onChange: (visible: boolean) => void,
  hideAfterMs = CONTROLS_VISIBLE_MS,
  timers: Timers = realTimers,
) {
  let visible = false;
  let handle: unknown;
  const hide = () => {
    handle = undefined;
    if (!visible) return;
    visible = false;
    onChange(false);
  };
  return {
    poke() {
      if (handle !== undefined) timers.clear(handle);
      handle = timers.set(hide, hideAfterMs);
      if (visible) return;
      visible = true;
      onChange(true);
    },
    stop() {
      if (handle !== undefined) timers.clear(handle);
      hide();
    },
  };
}

/**
 * Where the player's leave button goes: back, when the player was reached inside the app (the router's history
 * index is past its first entry); else the same-site page that opened it in a new tab (the files or playlists page);
 * else the start page. Never to another site, and never to another player page.
 */
export function leaveTarget(opts: { historyIndex: number | null; referrer: string; origin: string }): -1 | string {
  if (opts.historyIndex !== null && opts.historyIndex > 0) return -1;
  if (opts.referrer) {
    try {
      const from = new URL(opts.referrer);
      if (from.origin === opts.origin && !from.pathname.startsWith('/signage/') && from.pathname !== '/login')
        return `${from.pathname}${from.search}`;
    } catch {
      // not a URL: the start page
    }
  }
  return '/';
}
