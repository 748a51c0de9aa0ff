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
 * index is past its first entry); else the same-site page that opened it (its `from` parameter, then the referrer,
 * which the app's no-referrer policy usually withholds); else, in a tab of its own (a history of one page: the files
 * and playlists pages open the player in a new tab), closing that tab returns to the page that opened it ('close',
 * the start page if the browser refuses); else the start page. Never to another site, nor to another player page.
 */
export function leaveTarget(opts: {
  historyIndex: number | null;
  referrer: string;
  origin: string;
  from?: string | null;
  historyLength?: number;
}): -1 | 'close' | string {
  if (opts.historyIndex !== null && opts.historyIndex > 0) return -1;
  // `from` is a path of this site ("/files?q=x"); the referrer a whole address
  const fromPath = opts.from?.startsWith('/') && !opts.from.startsWith('//') ? `${opts.origin}${opts.from}` : null;
  for (const candidate of [fromPath, opts.referrer]) {
    if (!candidate) continue;
    try {
      const from = new URL(candidate);
      if (from.origin === opts.origin && !from.pathname.startsWith('/signage/') && from.pathname !== '/login')
        return `${from.pathname}${from.search}`;
    } catch {
      // not a URL: the next one
    }
  }
  if (opts.historyLength === 1) return 'close';
  return '/';
}

/** How far a finger must travel sideways, and how much more sideways than up or down, to turn a page. */
export const SWIPE_MIN_PX = 50;
export const SWIPE_MAX_MS = 800;

/**
 * A swipe from where a finger touched to where it lifted: to the left turns to the next page, to the right to the
 * previous one (as a page of a book); short, slow or mostly vertical moves are not swipes.
 */
export function swipeDirection(move: { dx: number; dy: number; ms: number }): 'next' | 'previous' | null {
  if (move.ms > SWIPE_MAX_MS) return null;
  if (Math.abs(move.dx) < SWIPE_MIN_PX || Math.abs(move.dx) < 2 * Math.abs(move.dy)) return null;
  return move.dx < 0 ? 'next' : 'previous';
}

/** Previous and next have somewhere to go unless a single file has a single page (a playlist moves to its next file). */
export const canTurnPages = (pageCount: number, playableItems: number) => pageCount > 1 || playableItems > 1;
