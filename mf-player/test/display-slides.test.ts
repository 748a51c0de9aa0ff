import type { FilePage } from '@pagecast/contracts';
import { PlayRecord } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { pageSlides, playRecordOf } from '../src/features/display/model/slides';

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
