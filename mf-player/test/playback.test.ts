import { describe, expect, it } from 'vitest';
import {
  applyAtBoundary,
  effectiveMode,
  firstScreenWanted,
  ignoreKeyTarget,
  keyAction,
  nextPlaylistItem,
  nextStep,
  pageDurationMs,
  pageTimerMs,
  parseIndex,
  playlistItemSearch,
  previousStep,
  type PlayerFileLike,
  type Snapshot,
  VIDEO_STALL_GRACE_MS,
} from '../src/features/signage/model/playback';

const file = (over: Partial<PlayerFileLike> = {}): PlayerFileLike => ({
  id: 'f1',
  title: 'Deck',
  displayDuration: 30,
  displayMode: 'fit-height',
  ...over,
});
const item = (fileId: string, playable = true) => ({ fileId, file: playable ? { id: fileId } : null });

describe('page durations (autoplay)', () => {
  it("uses the file's duration, else the page's, else 5 s", () => {
    expect(pageDurationMs({ pageNumber: 1, imagePath: '/m', displayDuration: 30 }, file({ displayDuration: 1 }))).toBe(
      1000,
    );
    expect(pageDurationMs({ pageNumber: 1, imagePath: '/m', displayDuration: 7 }, file({ displayDuration: 0 }))).toBe(
      7000,
    );
    expect(pageDurationMs({ pageNumber: 1, imagePath: '/m', displayDuration: 0 }, file({ displayDuration: 0 }))).toBe(
      5000,
    );
    expect(pageDurationMs(undefined, undefined)).toBe(5000);
  });
  it("a video's page lasts the video's length (not the file's seconds); its timer only guards a stall past the end", () => {
    const poster = {
      pageNumber: 1,
      imagePath: '/m',
      displayDuration: 5,
      video: { url: '/media/video/v', durationMs: 12_300 },
    };
    expect(pageDurationMs(poster, file({ displayDuration: 5 }))).toBe(12_300);
    expect(pageTimerMs(poster, file({ displayDuration: 5 }))).toBe(12_300 + VIDEO_STALL_GRACE_MS);
    expect(pageTimerMs({ pageNumber: 1, imagePath: '/m' }, file({ displayDuration: 5 }))).toBe(5000);
  });
});

describe('keys', () => {
  it('Escape stops, arrows move, Space toggles, other keys do nothing', () => {
    expect(keyAction('Escape')).toBe('stop');
    expect(keyAction('ArrowLeft')).toBe('previous');
    expect(keyAction('ArrowRight')).toBe('next');
    expect(keyAction(' ')).toBe('toggle');
    expect(keyAction('Enter')).toBeNull();
    expect(keyAction('a')).toBeNull();
  });
  it('keys typed into a field are left alone', () => {
    expect(ignoreKeyTarget({ tagName: 'INPUT' })).toBe(true);
    expect(ignoreKeyTarget({ tagName: 'SELECT' })).toBe(true);
    expect(ignoreKeyTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(ignoreKeyTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(ignoreKeyTarget(null)).toBe(false);
    // Space on a button the keyboard focused presses the button only; after a click it still plays and pauses
    expect(ignoreKeyTarget({ tagName: 'BUTTON', focusVisible: true }, ' ')).toBe(true);
    expect(ignoreKeyTarget({ tagName: 'A', focusVisible: true }, ' ')).toBe(true);
    expect(ignoreKeyTarget({ tagName: 'BUTTON', focusVisible: false }, ' ')).toBe(false);
    expect(ignoreKeyTarget({ tagName: 'BUTTON', focusVisible: true }, 'ArrowRight')).toBe(false);
    expect(ignoreKeyTarget({ tagName: 'DIV', focusVisible: true }, ' ')).toBe(false);
  });
});

describe('advancing without a playlist', () => {
  it('goes page by page and wraps to the first page after the last', () => {
    expect(nextStep({ pageIndex: 0, pageCount: 3 })).toEqual({ kind: 'page', pageIndex: 1 });
    expect(nextStep({ pageIndex: 2, pageCount: 3 })).toEqual({ kind: 'page', pageIndex: 0 });
    expect(nextStep({ pageIndex: 0, pageCount: 1 })).toEqual({ kind: 'page', pageIndex: 0 });
  });
  it('previous goes back a page and from the first to the last', () => {
    expect(previousStep({ pageIndex: 2, pageCount: 3 })).toEqual({ kind: 'page', pageIndex: 1 });
    expect(previousStep({ pageIndex: 0, pageCount: 3 })).toEqual({ kind: 'page', pageIndex: 2 });
  });
  it('a deleted file shows the not-found screen at the boundary', () => {
    expect(nextStep({ pageIndex: 0, pageCount: 3, fileGone: true })).toEqual({ kind: 'not-found' });
    expect(previousStep({ pageIndex: 1, pageCount: 3, fileGone: true })).toEqual({ kind: 'not-found' });
  });
});

describe('advancing through a playlist', () => {
  const items = [item('a'), item('b'), item('c')];
  it('after the last page goes to the next item, and after the last item back to the first', () => {
    const playlist = { items, index: 0, fileId: 'a' };
    expect(nextStep({ pageIndex: 0, pageCount: 2, playlist })).toEqual({ kind: 'page', pageIndex: 1 });
    expect(nextStep({ pageIndex: 1, pageCount: 2, playlist })).toEqual({ kind: 'item', fileId: 'b', index: 1 });
    expect(nextStep({ pageIndex: 0, pageCount: 1, playlist: { items, index: 2, fileId: 'c' } })).toEqual({
      kind: 'item',
      fileId: 'a',
      index: 0,
    });
  });
  it('skips items whose file is gone', () => {
    const withGone = [item('a'), item('b', false), item('c')];
    expect(nextPlaylistItem(withGone, 'a', 0)).toEqual({ fileId: 'c', index: 2 });
    expect(nextPlaylistItem([item('a', false)], 'x', 0)).toBeNull();
    expect(nextPlaylistItem([], 'x', 0)).toBeNull();
  });
  it('a playlist of one file starts it over without navigating', () => {
    expect(nextStep({ pageIndex: 1, pageCount: 2, playlist: { items: [item('a')], index: 0, fileId: 'a' } })).toEqual({
      kind: 'page',
      pageIndex: 0,
    });
  });
  it('finds the current file when the order changed, and the item that took its place when it left', () => {
    const reordered = [item('c'), item('a'), item('b')];
    expect(nextPlaylistItem(reordered, 'a', 0)).toEqual({ fileId: 'b', index: 2 });
    // 'b' (index 1) was removed: 'c' slid into index 1 and plays next
    expect(nextPlaylistItem([item('a'), item('c')], 'b', 1)).toEqual({ fileId: 'c', index: 1 });
  });
  it('a file deleted or removed from the playlist hands over to the next item at the boundary, mid-file', () => {
    const playlist = { items: [item('a'), item('b', false), item('c')], index: 1, fileId: 'b' };
    expect(nextStep({ pageIndex: 0, pageCount: 3, playlist })).toEqual({ kind: 'item', fileId: 'c', index: 2 });
    const removed = { items: [item('a'), item('c')], index: 1, fileId: 'b' };
    expect(nextStep({ pageIndex: 0, pageCount: 3, playlist: removed })).toEqual({
      kind: 'item',
      fileId: 'c',
      index: 1,
    });
    expect(
      nextStep({ pageIndex: 0, pageCount: 3, fileGone: true, playlist: { ...removed, items: [item('c')] } }),
    ).toEqual({ kind: 'item', fileId: 'c', index: 0 });
  });
  it('the only file of a playlist deleted: not found', () => {
    const playlist = { items: [item('a', false)], index: 0, fileId: 'a' };
    expect(nextStep({ pageIndex: 0, pageCount: 2, fileGone: true, playlist })).toEqual({ kind: 'not-found' });
    expect(nextStep({ pageIndex: 0, pageCount: 2, playlist: { items: [], index: 0, fileId: 'a' } })).toEqual({
      kind: 'not-found',
    });
  });
  it('the next URL asks for autoplay at the next index', () => {
    expect(playlistItemSearch('p1', 3)).toBe('?playlist=p1&index=3&autoplay=true');
    expect(parseIndex('2')).toBe(2);
    expect(parseIndex('-1')).toBe(0);
    expect(parseIndex('x')).toBe(0);
    expect(parseIndex(null)).toBe(0);
  });
});

describe('updates are applied at the next page boundary', () => {
  const pages = [{ pageNumber: 1, imagePath: '/media/a.webp' }];
  const shown: Snapshot = { file: file(), pages, items: [item('f1')], fileGone: false };

  it('nothing new: the same snapshot, not changed', () => {
    const out = applyAtBoundary(shown, {
      file: shown.file,
      pages,
      items: shown.items,
      fileGone: false,
      playlistGone: false,
    });
    expect(out.changed).toBe(false);
    expect(out.snapshot).toBe(shown);
  });
  it('everything that arrived since the last boundary is applied at once', () => {
    const newer = file({ displayDuration: 1, displayMode: 'fill' });
    const newItems = [item('f1'), item('f2')];
    const out = applyAtBoundary(shown, { file: newer, pages, items: newItems, fileGone: false, playlistGone: false });
    expect(out.changed).toBe(true);
    expect(out.snapshot.file.displayDuration).toBe(1);
    expect(out.snapshot.items).toBe(newItems);
  });
  it('unknown (a failed refetch while offline) keeps what is shown; gone is recorded', () => {
    expect(applyAtBoundary(shown, { fileGone: false, playlistGone: false }).changed).toBe(false);
    const gone = applyAtBoundary(shown, { fileGone: true, playlistGone: false });
    expect(gone.snapshot.fileGone).toBe(true);
    expect(gone.snapshot.file).toBe(shown.file);
    expect(applyAtBoundary(shown, { fileGone: false, playlistGone: true }).snapshot.items).toBeNull();
  });
  it("the display mode is the viewer's pick, else the file's", () => {
    expect(effectiveMode(null, file({ displayMode: 'fit-width' }))).toBe('fit-width');
    expect(effectiveMode('fill', file({ displayMode: 'fit-width' }))).toBe('fill');
    expect(effectiveMode(null, undefined)).toBe('fit-height');
  });
});

describe("a file's first screen", () => {
  it('starts when the route names another file than the one shown, once that file has loaded', () => {
    // opened by hand (a new URL): the route follows the URL, the new file's data arrives later
    expect(firstScreenWanted('a', 'b', undefined)).toBe(false);
    expect(firstScreenWanted('a', 'b', 'a')).toBe(false);
    expect(firstScreenWanted('a', 'b', 'b')).toBe(true);
    // first load: nothing shown yet
    expect(firstScreenWanted(undefined, 'a', 'a')).toBe(true);
  });
  it('not when the player itself moved to the next item and the URL has not caught up', () => {
    // the route ref and the screen are on b; this render still carries a's URL and a's data (a refetch landed)
    expect(firstScreenWanted('b', 'b', 'a')).toBe(false);
    expect(firstScreenWanted('b', 'b', 'b')).toBe(false);
  });
});
