// What the display shows, page by page, and the proof-of-play record of each showing.
import type { FilePage, PlayRecord } from '@pagecast/contracts';

export interface Slide {
  fileId: string;
  /** position among the file's pages (0 = first): the alt text, the heartbeat's "now playing" */
  page: number;
  /** the page's own number (1 = first page): what a play record names */
  pageNumber: number;
  imagePath: string;
  seconds: number;
}

/** The slides of one file's pages, in order, each shown for its duration (at least a second). */
export function pageSlides(fileId: string, pages: FilePage[]): Slide[] {
  return pages.map((p, index) => ({
    fileId,
    page: index,
    pageNumber: p.pageNumber,
    imagePath: p.imagePath,
    seconds: Math.max(1, p.displayDuration),
  }));
}

/** The record of a page shown from `shownAt` until `endedAt` (ms); none for a glimpse under half a second. */
export function playRecordOf(slide: Slide, shownAt: number, endedAt: number, id: string): PlayRecord | null {
  const seconds = (endedAt - shownAt) / 1000;
  if (seconds < 0.5) return null;
  return {
    id,
    fileId: slide.fileId,
    page: slide.pageNumber,
    startedAt: new Date(shownAt).toISOString(),
    seconds: Math.round(seconds * 10) / 10,
  };
}
