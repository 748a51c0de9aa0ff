// Playlist rules as plain functions. Items live inside their playlist document (see data/playlists.ts), so every
// change is computed here from one consistent snapshot and written back whole.

export interface PlaylistItemRecord {
  fileId: string;
  position: number;
  createdAt: Date;
  /** a video item played this many times in a row (2..PLAYLIST_LOOPS_MAX); absent = once */
  loops?: number;
}

export interface PlaylistRecord {
  _id: string;
  userId: string;
  name: string;
  description: string | null;
  /** embedded: a save is one single-document write, so a reader never sees half of it */
  items: PlaylistItemRecord[];
  /** +1 on every change */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** Items in play order. */
export function inPlayOrder(items: readonly PlaylistItemRecord[]): PlaylistItemRecord[] {
  return [...items].sort((a, b) => a.position - b.position);
}

/** Why a file cannot go at a position: it is already in the playlist, or the position is taken. */
export function placementConflict(
  items: readonly PlaylistItemRecord[],
  fileId: string,
  position: number,
): 'PLAYLIST_ITEM_EXISTS' | 'PLAYLIST_POSITION_TAKEN' | undefined {
  if (items.some((i) => i.fileId === fileId)) return 'PLAYLIST_ITEM_EXISTS';
  if (items.some((i) => i.position === position)) return 'PLAYLIST_POSITION_TAKEN';
  return undefined;
}

/** The first id that appears twice, if any. */
export function firstRepeat(ids: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

/**
 * The items of a save: the files in order at positions 0..n-1. A file that was already in the playlist keeps its
 * createdAt (it was added then, only moved now). `loops`: each video item's loops (a file not named plays once);
 * absent, every kept item keeps its loops (an editor that does not know loops erases none).
 */
export function itemsFromFileIds(
  fileIds: readonly string[],
  previous: readonly PlaylistItemRecord[],
  now: Date,
  loops?: Readonly<Record<string, number>>,
): PlaylistItemRecord[] {
  const before = new Map(previous.map((i) => [i.fileId, i]));
  return fileIds.map((fileId, position) => {
    const times = loops ? loops[fileId] : before.get(fileId)?.loops;
    return {
      fileId,
      position,
      createdAt: before.get(fileId)?.createdAt ?? now,
      ...(times !== undefined && times > 1 ? { loops: times } : {}),
    };
  });
}

/**
 * The first file whose loops may not be set: one that is not a video (a page or a photo shows for its seconds), or one
 * not among the saved files. `kindOf` answers a saved file's kind.
 */
export function loopsRefused(
  loops: Readonly<Record<string, number>> | undefined,
  fileIds: readonly string[],
  kindOf: (fileId: string) => string | undefined,
): string | undefined {
  if (!loops) return undefined;
  const saved = new Set(fileIds);
  return Object.keys(loops).find((fileId) => !saved.has(fileId) || kindOf(fileId) !== 'video');
}
