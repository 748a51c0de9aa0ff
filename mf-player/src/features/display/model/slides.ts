// What the display shows, page by page, and the proof-of-play record of each showing.
import type { FilePage, PageVideo, PlayRecord } from '@pagecast/contracts';

export interface Slide {
  fileId: string;
  /** position among the file's pages (0 = first): the alt text, the heartbeat's "now playing" */
  page: number;
  /** the page's own number (1 = first page): what a play record names */
  pageNumber: number;
  imagePath: string;
  /** how long it stays: the page's duration, or a video's length rounded up (what the health report's hold names) */
  seconds: number;
  /** a video's poster page: the video played in its place, until it ends (the poster is its poster) */
  video?: PageVideo;
  /** a video's item: how many times it plays in a row before the next slide (absent: once) */
  loops?: number;
}

/**
 * The slides of one file's pages, in order, each shown for its duration (at least a second); a video's page plays the
 * video for its length instead, `loops` times in a row (its playlist item's loops).
 */
export function pageSlides(fileId: string, pages: FilePage[], loops = 1): Slide[] {
  return pages.map((p, index) => {
    const times = p.video ? Math.max(1, Math.floor(loops)) : 1;
    return {
      fileId,
      page: index,
      pageNumber: p.pageNumber,
      imagePath: p.imagePath,
      seconds: p.video ? Math.max(1, Math.ceil((p.video.durationMs * times) / 1000)) : Math.max(1, p.displayDuration),
      ...(p.video ? { video: p.video } : {}),
      ...(times > 1 ? { loops: times } : {}),
    };
  });
}

/**
 * A video that has not ended this long after its length is moved past (a stalled stream, a decoder that hangs): its
 * `ended` event is what moves on, this only keeps the display from stalling.
 */
export const VIDEO_STALL_GRACE_MS = 10_000;

/** How long the slide's timer waits: a page's duration, or for a video only the stall guard past its length. */
export const slideTimerMs = (slide: Slide): number =>
  slide.video ? slide.video.durationMs * (slide.loops ?? 1) + VIDEO_STALL_GRACE_MS : slide.seconds * 1000;

/** The slide shown after step `step` (the one prepared ahead), none when nothing plays. */
export const slideAfter = (slides: readonly Slide[], step: number): Slide | undefined =>
  slides.length ? slides[(step + 1) % slides.length] : undefined;

/**
 * The record of a page shown from `shownAt` until `endedAt` (ms); none for a glimpse under half a second. A video's
 * names the second of the video it reached (`reached`: its time when it left the screen, after its last loop), to a
 * hundredth, no further than its length.
 */
export function playRecordOf(
  slide: Slide,
  shownAt: number,
  endedAt: number,
  id: string,
  reached?: number | null,
): PlayRecord | null {
  const seconds = (endedAt - shownAt) / 1000;
  if (seconds < 0.5) return null;
  const length = slide.video ? slide.video.durationMs / 1000 : 0;
  return {
    id,
    fileId: slide.fileId,
    page: slide.pageNumber,
    startedAt: new Date(shownAt).toISOString(),
    seconds: Math.round(seconds * 10) / 10,
    ...(slide.video && reached != null && Number.isFinite(reached)
      ? { reachedSecond: Math.round(Math.min(Math.max(0, reached), length) * 100) / 100 }
      : {}),
  };
}
