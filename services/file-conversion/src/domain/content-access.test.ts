import { describe, expect, it } from 'vitest';
import {
  type ContentRequest,
  contentAccess,
  LICENCE_KEEP_MS,
  OWNER_KEEP_MS,
  PREVIEW_KEEP_MS,
  playlistAccess,
  REFUSAL_KEEP_MS,
  type ScreenView,
} from './content-access';

const now = Date.parse('2026-03-01T12:00:00Z');
const at = (ms: number) => new Date(now + ms);
const seller = 'seller';
const buyer = 'buyer';
const file = { id: 'f1', ownerId: seller };
const onSale = { ...file, onSale: true };
const member = (userId: string) => ({ kind: 'member', userId }) as const;

const ask = (over: Partial<ContentRequest>) =>
  contentAccess({ reader: member(buyer), files: [file], licences: [], use: 'play', now, ...over });

const screen = (over: Partial<ScreenView> = {}): ScreenView => ({
  ownerId: buyer,
  playlistIds: new Set(),
  fileIds: new Set(),
  ...over,
});
const device = (view: ScreenView | null, ownerId = buyer) => ({ kind: 'device', ownerId, screen: view }) as const;

describe('who may see a file’s content', () => {
  it('its owner, always, for either use; the answer is kept 60 s', () => {
    for (const use of ['play', 'library'] as const) {
      expect(ask({ reader: member(seller), use })).toEqual({
        access: 'owner',
        fileId: 'f1',
        licenceExpiresAt: null,
        keepMs: OWNER_KEEP_MS,
      });
    }
  });

  it('a holder of a live licence, to play it only; kept 3 s', () => {
    const licences = [{ fileId: 'f1', expiresAt: at(86_400_000) }];
    expect(ask({ licences })).toEqual({
      access: 'licence',
      fileId: 'f1',
      licenceExpiresAt: at(86_400_000),
      keepMs: LICENCE_KEEP_MS,
    });
    // the file's own page (not signage mode) is the owner's
    expect(ask({ licences, use: 'library' })).toMatchObject({ access: null, refusal: 'content' });
  });

  it('the latest of several live licences counts', () => {
    const licences = [
      { fileId: 'f1', expiresAt: at(60_000) },
      { fileId: 'f1', expiresAt: at(120_000) },
      { fileId: 'f1', expiresAt: at(90_000) },
    ];
    expect(ask({ licences })).toMatchObject({ access: 'licence', licenceExpiresAt: at(120_000) });
  });

  it('nothing once the licence has ended (at its end exactly, too); a refusal is kept 2 s', () => {
    for (const end of [-1, 0]) {
      expect(ask({ licences: [{ fileId: 'f1', expiresAt: at(end) }] })).toEqual({
        access: null,
        refusal: 'content',
        keepMs: REFUSAL_KEEP_MS,
      });
    }
  });

  it('a licence ending within the keeping time is never kept past its end', () => {
    expect(ask({ licences: [{ fileId: 'f1', expiresAt: at(1_250) }] })).toMatchObject({
      access: 'licence',
      keepMs: 1_250,
    });
    expect(ask({ licences: [{ fileId: 'f1', expiresAt: at(1) }] })).toMatchObject({ keepMs: 1 });
  });

  it('a licence for another file gives nothing', () => {
    expect(ask({ licences: [{ fileId: 'f2', expiresAt: at(60_000) }] })).toMatchObject({ access: null });
  });

  it('another member gets nothing, the same answer as for a missing file', () => {
    const stranger = ask({ reader: member('stranger') });
    expect(stranger).toEqual({ access: null, refusal: 'content', keepMs: REFUSAL_KEEP_MS });
    expect(ask({ reader: member('stranger'), files: [] })).toEqual(stranger);
  });

  it('a deleted file: nothing, for its former owner or a live licence either', () => {
    expect(ask({ reader: member(seller), files: [] })).toMatchObject({ access: null, refusal: 'content' });
    expect(ask({ files: [], licences: [{ fileId: 'f1', expiresAt: at(60_000) }] })).toMatchObject({ access: null });
  });

  it('an image shown by several files: the owner of one of them, else a live licence for one of them', () => {
    const mine = { id: 'f2', ownerId: buyer };
    expect(ask({ files: [file, mine] })).toMatchObject({ access: 'owner', fileId: 'f2', keepMs: OWNER_KEEP_MS });
    const licences = [{ fileId: 'f3', expiresAt: at(60_000) }];
    expect(ask({ files: [file, { id: 'f3', ownerId: 'other' }], licences })).toMatchObject({
      access: 'licence',
      fileId: 'f3',
    });
  });
});

describe('a paired display (as its screen’s owner, only what its screen plays)', () => {
  const own = { id: 'f1', ownerId: buyer };

  it('a file assigned to its screen directly', () => {
    expect(ask({ reader: device(screen({ fileIds: new Set(['f1']) })), files: [own] })).toMatchObject({
      access: 'owner',
      keepMs: OWNER_KEEP_MS,
    });
  });

  it('a file of a playlist assigned to its screen (the view holds the playlist’s items)', () => {
    const view = screen({ playlistIds: new Set(['p1']), fileIds: new Set(['f1']) });
    expect(ask({ reader: device(view), files: [own] })).toMatchObject({ access: 'owner' });
  });

  it('a file of a schedule’s day part, at any hour (screens lists every part’s content; the display picks)', () => {
    // a schedule of a morning playlist and an evening file: screens announces both
    const view = screen({ playlistIds: new Set(['morning']), fileIds: new Set(['f1', 'evening-file']) });
    expect(ask({ reader: device(view), files: [own], now: Date.parse('2026-03-01T03:00:00Z') })).toMatchObject({
      access: 'owner',
    });
  });

  it('a bought file its screen plays, under its owner’s live licence only', () => {
    const view = screen({ fileIds: new Set(['f1']) });
    const licences = [{ fileId: 'f1', expiresAt: at(2_000) }];
    expect(ask({ reader: device(view), licences })).toMatchObject({ access: 'licence', keepMs: 2_000 });
    expect(ask({ reader: device(view), licences: [{ fileId: 'f1', expiresAt: at(-1) }] })).toMatchObject({
      access: null,
      refusal: 'content',
    });
  });

  it('nothing its screen does not play, even its owner’s own file', () => {
    const view = screen({ fileIds: new Set(['other']) });
    expect(ask({ reader: device(view), files: [own] })).toEqual({
      access: null,
      refusal: 'content',
      keepMs: REFUSAL_KEEP_MS,
    });
  });

  it('an image: when one of the files showing it is on its screen', () => {
    const view = screen({ fileIds: new Set(['f2']) });
    const files = [
      { id: 'f1', ownerId: buyer },
      { id: 'f2', ownerId: buyer },
    ];
    expect(ask({ reader: device(view), files })).toMatchObject({ access: 'owner' });
  });

  it('nothing from an unknown or unpaired screen, or one its owner no longer holds', () => {
    expect(ask({ reader: device(null), files: [own] })).toMatchObject({ access: null, refusal: 'screen' });
    const other = screen({ ownerId: 'someone else', fileIds: new Set(['f1']) });
    expect(ask({ reader: device(other), files: [own] })).toMatchObject({ access: null, refusal: 'screen' });
  });
});

describe('a preview of a file on sale', () => {
  const preview = (userId: string) => ({ kind: 'preview', userId }) as const;

  it('any member, the owner too, while it is on sale; kept as long as the browser keeps a preview', () => {
    for (const who of [buyer, seller]) {
      expect(ask({ reader: preview(who), files: [onSale] })).toEqual({
        access: 'preview',
        fileId: 'f1',
        licenceExpiresAt: null,
        keepMs: PREVIEW_KEEP_MS,
      });
    }
  });

  it('nobody once it is off sale or deleted, its owner or a licence holder either', () => {
    const licences = [{ fileId: 'f1', expiresAt: at(60_000) }];
    expect(ask({ reader: preview(seller), files: [file] })).toMatchObject({ access: null, refusal: 'content' });
    expect(ask({ reader: preview(buyer), files: [file], licences })).toMatchObject({ access: null });
    expect(ask({ reader: preview(buyer), files: [] })).toMatchObject({ access: null });
  });
});

describe('who may read a playlist', () => {
  const list = { id: 'p1', ownerId: buyer };

  it('its owner; nobody else, as for one that does not exist', () => {
    expect(playlistAccess(member(buyer), list)).toEqual({ allowed: true });
    expect(playlistAccess(member('stranger'), list)).toEqual({ allowed: false, refusal: 'content' });
    expect(playlistAccess(member(buyer), null)).toEqual({ allowed: false, refusal: 'content' });
  });

  it('a display whose screen plays it (directly or by a schedule), as its owner; not another', () => {
    expect(playlistAccess(device(screen({ playlistIds: new Set(['p1']) })), list)).toEqual({ allowed: true });
    expect(playlistAccess(device(screen({ playlistIds: new Set(['p2']) })), list)).toEqual({
      allowed: false,
      refusal: 'content',
    });
    // the screen's owner's playlist only (an id of another member's playlist on the screen gives nothing)
    expect(playlistAccess(device(screen({ playlistIds: new Set(['p1']) })), { id: 'p1', ownerId: 'stranger' })).toEqual(
      { allowed: false, refusal: 'content' },
    );
    expect(playlistAccess(device(null), list)).toEqual({ allowed: false, refusal: 'screen' });
  });
});
