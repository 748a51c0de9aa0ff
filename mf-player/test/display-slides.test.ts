import type { FilePage } from '@pagecast/contracts';
import { PlayRecord } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import {
  pageSlides,
  playRecordOf,
  slideAfter,
  slideTimerMs,
  VIDEO_STALL_GRACE_MS,
} from '../src/features/display/model/slides';

const page = (pageNumber: number): FilePage => ({
  id: `p${pageNumber}`,
  fileId: 'f',
  pageNumber,
  imagePath: `/media/${pageNumber}.webp`,
  thumbPath: `/media/t${pageNumber}.webp`,
  displayDuration: pageNumber === 2 ? 0 : 8,
  createdAt: '2026-11-20T00:00:00.000Z',
});

describe('proof of play on the display', () => {
  it('names the page by its number (1 = first page), as the service checks it against the page count', () => {
    const slides = pageSlides('f', [page(1), page(2), page(3)]);
    expect(slides.map((s) => [s.page, s.pageNumber, s.seconds])).toEqual([
      [0, 1, 8],
      [1, 2, 1],
      [2, 3, 8],
    ]);
    const shown = Date.parse('2026-11-20T10:00:00.000Z');
    const records = slides.map((s, i) =>
      playRecordOf(s, shown + i * 8000, shown + (i + 1) * 8000, crypto.randomUUID()),
    );
    expect(records.map((r) => r?.page)).toEqual([1, 2, 3]);
    for (const r of records) expect(PlayRecord.safeParse(r).success).toBe(true);
    expect(records[1]).toMatchObject({ fileId: 'f', startedAt: '2026-11-20T10:00:08.000Z', seconds: 8 });
    // a glimpse is no play
    expect(playRecordOf(slides[0] as (typeof slides)[number], shown, shown + 499, 'x')).toBeNull();
  });
});

describe('a video file on the display', () => {
  const poster: FilePage = {
    ...page(1),
    fileId: 'v',
    displayDuration: 8,
    video: { url: '/media/video/v', durationMs: 12_300 },
  };
  it('plays for its length, not the page seconds: the timer only guards a stall past its end', () => {
    const [slide] = pageSlides('v', [poster]);
    expect(slide).toMatchObject({ fileId: 'v', pageNumber: 1, seconds: 13, video: poster.video });
    expect(slideTimerMs(slide as NonNullable<typeof slide>)).toBe(12_300 + VIDEO_STALL_GRACE_MS);
    const [doc] = pageSlides('f', [page(1)]);
    expect(doc?.video).toBeUndefined();
    expect(slideTimerMs(doc as NonNullable<typeof doc>)).toBe(8000);
  });
  it('names the slide after each step, around the loop (the one prepared ahead)', () => {
    const slides = [...pageSlides('f', [page(1)]), ...pageSlides('v', [poster]), ...pageSlides('g', [page(3)])];
    expect(slideAfter(slides, 0)?.fileId).toBe('v');
    expect(slideAfter(slides, 1)?.fileId).toBe('g');
    expect(slideAfter(slides, 2)?.fileId).toBe('f');
    expect(slideAfter(slides, 5)?.fileId).toBe('f');
    expect(slideAfter([], 0)).toBeUndefined();
  });
});
