// The playlist editor's list operations as plain functions: the chosen files, in play order.

/** Ticking a file adds it at the end; unticking removes it. */
export function toggleFile(order: readonly string[], fileId: string): string[] {
  return order.includes(fileId) ? order.filter((id) => id !== fileId) : [...order, fileId];
}

/** Moves the file at `index` one place up (-1) or down (+1); at an end nothing moves. */
export function moveFile(order: readonly string[], index: number, delta: -1 | 1): string[] {
  const to = index + delta;
  if (index < 0 || index >= order.length || to < 0 || to >= order.length) return [...order];
  const next = [...order];
  const [moved] = next.splice(index, 1);
  if (moved !== undefined) next.splice(to, 0, moved);
  return next;
}

export function removeFile(order: readonly string[], fileId: string): string[] {
  return order.filter((id) => id !== fileId);
}

/** The first item of a playlist that can be played (its file still exists and may be played), with its index. */
export function firstPlayable<T extends { fileId: string; file?: unknown }>(
  items: readonly T[],
): { fileId: string; index: number } | null {
  const index = items.findIndex((i) => i.file !== null);
  const item = items[index];
  return item ? { fileId: item.fileId, index } : null;
}

/** Name of a new playlist: non-blank after trimming (spec point 5). */
export function validPlaylistName(name: string): string | null {
  const trimmed = name.trim();
  return trimmed ? trimmed : null;
}

/**
 * The loops a save sends: each chosen video's (a file not named plays once; values outside 1..PLAYLIST_LOOPS_MAX are
 * the server's to refuse). Only videos: the server refuses loops on another kind.
 */
export function loopsOfChosen(
  order: readonly string[],
  loops: Readonly<Record<string, number>>,
  isVideo: (fileId: string) => boolean,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const fileId of order) {
    const times = loops[fileId];
    if (isVideo(fileId) && times !== undefined && times !== 1) out[fileId] = times;
  }
  return out;
}
