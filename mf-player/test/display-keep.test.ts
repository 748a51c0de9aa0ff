import type { FilePage, PlaylistItem, ResolutionInputs } from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';
import { describe, expect, it } from 'vitest';
import { assignedMedia } from '../src/features/display/model/keep-offline';

const page = (fileId: string, n: number, video?: boolean): FilePage =>
  ({
    id: `${fileId}-${n}`,
    fileId,
    pageNumber: n,
    imagePath: `/media/${fileId}-${n}.webp`,
    thumbPath: `/media/${fileId}-${n}-t.webp`,
    displayDuration: 5,
    ...(video ? { video: { url: `/media/video/${fileId}`, durationMs: 2000 } } : {}),
  }) as FilePage;
const item = (playlistId: string, fileId: string, position: number, file: object | null = {}) =>
  ({ id: `${playlistId}-${fileId}`, playlistId, fileId, position, createdAt: '', file }) as PlaylistItem;

// the screen's own schedule (a morning part and a default playlist), a group's file, a takeover's file
const inputs = {
  timeZone: 'Asia/Tokyo',
  assignment: {
    kind: 'schedule',
    schedule: { parts: [{ playlistId: 'morning', days: [1], start: '08:00', end: '12:00' }], defaultPlaylistId: 'day' },
  },
  groups: [{ id: 'g', assignment: { kind: 'file', fileId: 'lobby' } }],
  takeovers: [{ id: 't', show: { kind: 'file', fileId: 'urgent' }, startsAt: 0, endsAt: null }],
} as unknown as ResolutionInputs;

const playlists: Record<string, PlaylistItem[]> = {
  morning: [item('morning', 'clip', 1), item('morning', 'doc', 0)],
  day: [item('day', 'doc', 0), item('day', 'expired', 1, null)],
};
const pages: Record<string, FilePage[]> = {
  doc: [page('doc', 1), page('doc', 2)],
  clip: [page('clip', 1, true)],
  lobby: [page('lobby', 1)],
  urgent: [page('urgent', 1)],
};
const reads = (fail: Record<string, unknown> = {}) => ({
  playlist: async (id: string) => {
    if (fail[id]) throw fail[id];
    return playlists[id] ?? [];
  },
  pages: async (id: string) => {
    if (fail[id]) throw fail[id];
    const found = pages[id];
    if (!found) throw new HttpError(404, 'Not Found', '');
    return found;
  },
});

describe('what a display names for its worker to keep', () => {
  it('is the page images and videos of every day part, group and takeover, not only what plays now', async () => {
    const { items, complete } = await assignedMedia(inputs, reads());
    expect(complete).toBe(true);
    expect(items.map((i) => `${i.kind} ${i.url}`).sort()).toEqual(
      [
        'image /media/clip-1.webp',
        'video /media/video/clip',
        'image /media/doc-1.webp',
        'image /media/doc-2.webp',
        'image /media/lobby-1.webp',
        'image /media/urgent-1.webp',
      ].sort(),
    );
  });

  it('is still the whole list when content is gone (deleted, a licence ended): that content is just not named', async () => {
    const { items, complete } = await assignedMedia(inputs, reads({ urgent: new HttpError(403, 'Forbidden', '') }));
    expect(complete).toBe(true);
    expect(items.some((i) => i.url.includes('urgent'))).toBe(false);
  });

  it('is only added to what is assigned when a read failed otherwise (the network is out)', async () => {
    const cut = await assignedMedia(inputs, reads({ morning: new TypeError('Failed to fetch') }));
    expect(cut.complete).toBe(false);
    expect(cut.items.some((i) => i.url === '/media/video/clip')).toBe(false);
    const busy = await assignedMedia(inputs, reads({ lobby: new HttpError(503, 'Unavailable', '') }));
    expect(busy.complete).toBe(false);
  });
});
