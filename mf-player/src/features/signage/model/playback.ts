// The player's rules as plain functions (spec points 2 and 4): page durations, where the next step goes (next page,
// wrap, next playlist item), keys, and how changes that arrived while a page was showing are applied at the next
// page boundary. No React, no timers: the page component drives them.
import { constants } from '@pagecast/contracts';

export type DisplayMode = 'fit-width' | 'fit-height' | 'fill';

export interface PlayerFileLike {
  id: string;
  title: string;
  displayDuration: number;
  displayMode: DisplayMode;
}
export interface PlayerPageLike {
  pageNumber: number;
  imagePath: string;
  displayDuration?: number | null;
  /** a video's poster page: the video played in its place (FilePage.video) */
  video?: { url: string; durationMs: number } | null;
}
export interface PlaylistItemLike {
  fileId: string;
  /** null: deleted, or a licence that ended (the server leaves such items out of play) */
  file?: unknown;
}

const positive = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;

/**
 * How long a page stays: the file's displayDuration (spec point 4; the service keeps every page's equal to it),
 * else the page's own, else the player's fallback of 5 s.
 */
export function pageDurationMs(page: PlayerPageLike | undefined, file: PlayerFileLike | undefined): number {
  // a video's page lasts the video's length
  if (page?.video) return Math.max(1000, page.video.durationMs);
  const seconds = positive(file?.displayDuration)
    ? file.displayDuration
    : positive(page?.displayDuration)
      ? page.displayDuration
      : constants.playerFallbackDurationSeconds;
  return seconds * 1000;
}

/**
 * A video that has not ended this long after its length is moved past (a stalled stream): its `ended` event is what
 * moves on, the page timer only guards a stall.
 */
export const VIDEO_STALL_GRACE_MS = 10_000;

/** How long the page timer waits: the page's duration, or a video's length plus the stall guard. */
export function pageTimerMs(page: PlayerPageLike | undefined, file: PlayerFileLike | undefined): number {
  return pageDurationMs(page, file) + (page?.video ? VIDEO_STALL_GRACE_MS : 0);
}

export type KeyAction = 'stop' | 'previous' | 'next' | 'toggle';

/** Escape stops and leaves fullscreen, arrows move a page, Space toggles play. */
export function keyAction(key: string): KeyAction | null {
  switch (key) {
    case 'Escape':
    case 'Esc':
      return 'stop';
    case 'ArrowLeft':
      return 'previous';
    case 'ArrowRight':
      return 'next';
    case ' ':
    case 'Spacebar':
      return 'toggle';
    default:
      return null;
  }
}

/**
 * Whether a key press should be left alone: typing in a field, and Space on a button or link that the keyboard
 * focused (`focusVisible`), which presses that control: toggling play as well would act twice for one key. After a
 * mouse click on a button Space still plays and pauses.
 */
export function ignoreKeyTarget(
  target: { tagName?: string; isContentEditable?: boolean; focusVisible?: boolean } | null,
  key?: string,
): boolean {
  if (!target?.tagName) return false;
  const tag = target.tagName.toLowerCase();
  const pressable = tag === 'button' || tag === 'a' || tag === 'summary';
  if ((key === ' ' || key === 'Spacebar') && pressable && target.focusVisible) return true;
  return tag === 'input' || tag === 'textarea' || tag === 'select' || Boolean(target.isContentEditable);
}

const playable = (item: PlaylistItemLike) => item.file !== null;

/**
 * The playlist item after the current one, wrapping to the first; items whose file is gone are skipped.
 * The current item is `index` when it still holds `fileId`, else wherever `fileId` now is; when the file left the
 * playlist, the item that took its place comes next. Null when nothing in the playlist can be played.
 */
export function nextPlaylistItem(
  items: readonly PlaylistItemLike[],
  fileId: string,
  index: number,
): { fileId: string; index: number } | null {
  const n = items.length;
  if (n === 0) return null;
  let current = items[index]?.fileId === fileId ? index : items.findIndex((i) => i.fileId === fileId);
  if (current === -1) current = Math.min(Math.max(index, 0), n) - 1;
  for (let step = 1; step <= n; step++) {
    const at = (((current + step) % n) + n) % n;
    const item = items[at];
    if (item && playable(item)) return { fileId: item.fileId, index: at };
  }
  return null;
}

export type Step =
  | { kind: 'page'; pageIndex: number }
  | { kind: 'item'; fileId: string; index: number }
  | { kind: 'not-found' };

export interface StepContext {
  pageIndex: number;
  pageCount: number;
  /** the current file can no longer be played (deleted, licence ended) */
  fileGone?: boolean;
  playlist?: { items: readonly PlaylistItemLike[]; index: number; fileId: string } | null;
}

/** Is the current file still a playable member of the playlist? */
function inPlaylist(ctx: StepContext): boolean {
  const p = ctx.playlist;
  if (!p) return true;
  return p.items.some((i) => i.fileId === p.fileId && playable(i));
}

/**
 * Where "next" goes: the next page; after the last page the next playlist item (or page 1 without a playlist);
 * a file that is gone or left the playlist hands over to the next item, or to the not-found screen.
 */
export function nextStep(ctx: StepContext): Step {
  const { pageIndex, pageCount, playlist } = ctx;
  const leaving = ctx.fileGone || !inPlaylist(ctx);
  if (leaving) {
    if (!playlist) return { kind: 'not-found' };
    const next = nextPlaylistItem(
      playlist.items.map((i) => (i.fileId === playlist.fileId ? { ...i, file: null } : i)),
      playlist.fileId,
      playlist.index,
    );
    return next ? { kind: 'item', ...next } : { kind: 'not-found' };
  }
  if (pageIndex + 1 < pageCount) return { kind: 'page', pageIndex: pageIndex + 1 };
  if (playlist) {
    const next = nextPlaylistItem(playlist.items, playlist.fileId, playlist.index);
    // the only playable item is this file: start it over without navigating
    if (next && !(next.fileId === playlist.fileId && next.index === playlist.index)) return { kind: 'item', ...next };
  }
  return { kind: 'page', pageIndex: 0 };
}

/** Where "previous" goes: the page before, from the first page to the last (never to another file). */
export function previousStep(ctx: StepContext): Step {
  if (ctx.fileGone || !inPlaylist(ctx)) return nextStep(ctx);
  if (ctx.pageCount === 0) return { kind: 'page', pageIndex: 0 };
  return { kind: 'page', pageIndex: (ctx.pageIndex - 1 + ctx.pageCount) % ctx.pageCount };
}

/** What is on screen: changed only at page boundaries. */
export interface Snapshot<F = PlayerFileLike, P = PlayerPageLike, I = PlaylistItemLike> {
  file: F;
  pages: readonly P[];
  /** null: no playlist (or it is gone) */
  items: readonly I[] | null;
  fileGone: boolean;
}

/** What the server said last (react-query data); undefined: not known yet (keep what is shown). */
export interface Latest<F, P, I> {
  file?: F | undefined;
  pages?: readonly P[] | undefined;
  items?: readonly I[] | null | undefined;
  fileGone: boolean;
  playlistGone: boolean;
}

/**
 * The snapshot to show from the next page on: whatever the server said since the last boundary, applied all at
 * once. `changed` tells whether anything differs (then the screen records when it applied an update).
 */
export function applyAtBoundary<F, P, I>(
  shown: Snapshot<F, P, I>,
  latest: Latest<F, P, I>,
): { snapshot: Snapshot<F, P, I>; changed: boolean } {
  const next: Snapshot<F, P, I> = {
    file: latest.file ?? shown.file,
    pages: latest.pages ?? shown.pages,
    items: latest.playlistGone ? null : latest.items === undefined ? shown.items : latest.items,
    fileGone: latest.fileGone,
  };
  const changed =
    next.file !== shown.file ||
    next.pages !== shown.pages ||
    next.items !== shown.items ||
    next.fileGone !== shown.fileGone;
  return { snapshot: changed ? next : shown, changed };
}

/**
 * Whether the player must start over on a file (its first screen): when the route names a file other than the one
 * on screen and that file's data has loaded. `routeFileId` is where the player is (the route ref), not the URL: the
 * player moves the route ahead of the URL when it goes to the next playlist item, and the router renders the new URL
 * in a transition, later (a page or more on a slow screen). A render in between (a refetch landing) still carries the
 * old URL; taking that for a file opened by hand sent the screen back to the previous file with the new playlist,
 * mid-page.
 */
export function firstScreenWanted(
  shownFileId: string | undefined,
  routeFileId: string,
  loadedFileId: string | undefined,
): boolean {
  return shownFileId !== routeFileId && loadedFileId === routeFileId;
}

/** The display mode in use: the viewer's pick, else the file's. */
export function effectiveMode(picked: DisplayMode | null, file: PlayerFileLike | undefined): DisplayMode {
  return picked ?? file?.displayMode ?? (constants.defaultDisplayMode as DisplayMode);
}

/** The search string of the next playlist item's player URL (autoplay true, index of that item). */
export function playlistItemSearch(playlistId: string, index: number): string {
  return `?${new URLSearchParams({ playlist: playlistId, index: String(index), autoplay: 'true' }).toString()}`;
}

/** The `index` query parameter: a non-negative integer, else 0. */
export function parseIndex(raw: string | null): number {
  const n = raw === null ? Number.NaN : Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}
