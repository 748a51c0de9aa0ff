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
  it("plays a video item's loops in a row: its length and stall guard times its loops; a page ignores loops", () => {
    const [slide] = pageSlides('v', [poster], 3);
    expect(slide).toMatchObject({ seconds: 37, loops: 3 });
    expect(slideTimerMs(slide as NonNullable<typeof slide>)).toBe(3 * 12_300 + VIDEO_STALL_GRACE_MS);
    expect(pageSlides('v', [poster], 1)[0]?.loops).toBeUndefined();
    const [doc] = pageSlides('f', [page(1)], 3);
    expect([doc?.loops, doc?.seconds]).toEqual([undefined, 8]);
  });
  it("a video's play record names the second it reached, to a hundredth and within its length", () => {
    const [slide] = pageSlides('v', [poster], 2);
    const shown = Date.parse('2026-11-20T10:00:00.000Z');
    const record = playRecordOf(
      slide as NonNullable<typeof slide>,
      shown,
      shown + 24_700,
      crypto.randomUUID(),
      12.2999,
    );
    expect(record).toMatchObject({ fileId: 'v', page: 1, seconds: 24.7, reachedSecond: 12.3 });
    expect(PlayRecord.safeParse(record).success).toBe(true);
    // a browser's time a hair past the length it was given, or not told at all
    const s = slide as NonNullable<typeof slide>;
    expect(playRecordOf(s, shown, shown + 13_000, 'r', 12.34)?.reachedSecond).toBe(12.3);
    expect(playRecordOf(s, shown, shown + 1000, 'r', null)).not.toHaveProperty('reachedSecond');
    // a page's record names none
    const [doc] = pageSlides('f', [page(1)]);
    expect(playRecordOf(doc as NonNullable<typeof doc>, shown, shown + 8000, 'r', 4)).not.toHaveProperty(
      'reachedSecond',
    );
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
