// What a paired display asks its service worker to keep for a network cut: the page images and videos of everything
// its manifest may play (every day part of its own and its groups' assignments, its takeovers' files), not only what
// plays now, so a schedule that switches during a cut still has its content. The worker keeps them under its cap and
// drops what is no longer named first (src/sw/keep.ts).
import { contentOfInputs, type FilePage, type PlaylistItem, type ResolutionInputs } from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';
import type { KeepItem } from '../../../sw/register';
import { pageSlides, type Slide } from './slides';

/** At most this many files are read and kept per round (a manifest names far fewer). */
export const KEEP_MAX_FILES = 200;
/** The display names its content again this often (a video download the browser cut short is taken up again). */
export const KEEP_EVERY_MS = 15 * 60_000;

export interface ContentReads {
  playlist: (id: string) => Promise<PlaylistItem[]>;
  pages: (fileId: string) => Promise<FilePage[]>;
}

/** The media of these slides: each page image, and each video's file. */
export function mediaOfSlides(slides: readonly Slide[]): KeepItem[] {
  const items = new Map<string, KeepItem>();
  for (const s of slides) {
    items.set(s.imagePath, { url: s.imagePath, kind: 'image' });
    if (s.video) items.set(s.video.url, { url: s.video.url, kind: 'video' });
  }
  return [...items.values()];
}

/** A read that says the content is no longer this screen's (deleted, a licence ended): not assigned any more. */
const gone = (err: unknown) =>
  err instanceof HttpError && (err.status === 403 || err.status === 404 || err.status === 410);

/**
 * The media of everything the screen may play. `complete` is false when a read failed for another reason (the
 * network is out and nothing was kept): the list is then only added to what is assigned, never put in its place.
 */
export async function assignedMedia(
  inputs: ResolutionInputs,
  read: ContentReads,
): Promise<{ items: KeepItem[]; complete: boolean }> {
  const { playlistIds, fileIds } = contentOfInputs(inputs);
  const files = new Set(fileIds);
  let complete = true;
  for (const id of playlistIds) {
    try {
      const items = await read.playlist(id);
      for (const i of [...items].sort((a, b) => a.position - b.position)) if (i.file !== null) files.add(i.fileId);
    } catch (err) {
      if (!gone(err)) complete = false;
    }
  }
  const slides: Slide[] = [];
  const all = [...files];
  if (all.length > KEEP_MAX_FILES) complete = false;
  for (const fileId of all.slice(0, KEEP_MAX_FILES)) {
    try {
      slides.push(...pageSlides(fileId, await read.pages(fileId)));
    } catch (err) {
      if (!gone(err)) complete = false;
    }
  }
  return { items: mediaOfSlides(slides), complete };
}
