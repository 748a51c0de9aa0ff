import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  corpus,
  destroyService,
  fileBytes,
  identityHeaders,
  type Json,
  newUser,
  objectNames,
  publishEvent,
  startService,
  type TestService,
  upload,
  waitConverted,
  waitFor,
} from './helpers';

let svc: TestService;
let pdf: { bytes: Buffer; name: string };
const owner = newUser();
const buyer = newUser();
const stranger = newUser();
let fileId: string;

/** Events this service announced, read back from the FILES stream. */
async function announced(subject: string, fileIdOf: string): Promise<Record<string, Json>[]> {
  const { jsm } = svc.server.context.nats;
  const out: Record<string, Json>[] = [];
  const info = await jsm.streams.info('FILES');
  // the newest messages are enough: read back from the end
  for (let seq = info.state.last_seq; seq > Math.max(0, info.state.last_seq - 400); seq--) {
    const m = await jsm.streams.getMessage('FILES', { seq }).catch(() => undefined);
    if (!m || m.subject !== subject) continue;
    const e = m.json<{ data: Record<string, Json> }>();
    if (e.data.fileId === fileIdOf) out.push(e.data);
  }
  return out;
}

beforeAll(async () => {
  svc = await startService();
  pdf = await fileBytes(join(corpus, 'pdf/vertical.pdf'));
  const up = await upload(svc, owner, pdf, { title: '縦書き', tags: JSON.stringify(['Sign', 'News']) });
  expect(up.status).toBe(200);
  fileId = up.body.id;
  await waitConverted(svc, owner, fileId);
}, 120_000);
afterAll(async () => {
  await destroyService(svc);
});

describe('file calls', () => {
  it('lists the owner’s files newest first; accessible files; dashboard stats', async () => {
    const second = await upload(svc, owner, pdf, { title: 'second' });
    await waitConverted(svc, owner, second.body.id);
    const list = (await call(svc, owner, 'GET', '/api/files')).body;
    expect(list.map((f: { id: string }) => f.id)).toEqual([second.body.id, fileId]);
    expect(list[1]).toMatchObject({ title: '縦書き', pageCount: 3, status: 'private', tags: ['sign', 'news'] });
    expect((await call(svc, stranger, 'GET', '/api/files')).body).toEqual([]);

    const accessible = (await call(svc, owner, 'GET', '/api/files/accessible')).body;
    expect(accessible.map((f: { access: string }) => f.access)).toEqual(['owner', 'owner']);

    const stats = (await call(svc, owner, 'GET', '/api/dashboard/stats')).body;
    expect(stats).toMatchObject({
      user: { membershipTier: 'trial', points: 0 },
      fileCount: 2,
      fileLimit: 3,
      monthlyEarnings: 0,
      monthlySpent: 0,
    });
    expect(stats.recentFiles.map((f: { id: string }) => f.id)).toEqual([second.body.id, fileId]);
    // same content: the two files share their page objects
    const a = (await call(svc, owner, 'GET', `/api/files/${fileId}/pages`)).body;
    const b = (await call(svc, owner, 'GET', `/api/files/${second.body.id}/pages`)).body;
    expect(b.map((p: { imagePath: string }) => p.imagePath)).toEqual(a.map((p: { imagePath: string }) => p.imagePath));
    expect((await call(svc, owner, 'DELETE', `/api/files/${second.body.id}`)).status).toBe(200);
    // still there for the first file
    const img = await fetch(`${svc.server.url}${a[0].imagePath}`, { headers: identityHeaders(svc, owner) });
    expect(img.status).toBe(200);
  });

  it('edits: duration 1–300, display mode, tags, title', async () => {
    const d = await call(svc, owner, 'PUT', `/api/files/${fileId}/duration`, { displayDuration: 300 });
    expect(d.status).toBe(200);
    expect(d.body.displayDuration).toBe(300);
    const pages = (await call(svc, owner, 'GET', `/api/files/${fileId}/pages`)).body;
    expect(pages.every((p: { displayDuration: number }) => p.displayDuration === 300)).toBe(true);
    // the pages just read are remembered for the file's version: an edit through PUT /api/files/:id shows at once
    expect((await call(svc, owner, 'PUT', `/api/files/${fileId}`, { displayDuration: 42 })).status).toBe(200);
    const edited = (await call(svc, owner, 'GET', `/api/files/${fileId}/pages`)).body;
    expect(edited.every((p: { displayDuration: number }) => p.displayDuration === 42)).toBe(true);
    for (const bad of [0, 301, 2.5, '10']) {
      const r = await call(svc, owner, 'PUT', `/api/files/${fileId}/duration`, { displayDuration: bad });
      expect(r.status).toBe(400);
      expect(r.body.issues[0].message).toBe('表示時間は1〜300秒の間で入力してください');
    }
    const m = await call(svc, owner, 'PUT', `/api/files/${fileId}/display-mode`, { displayMode: 'fill' });
    expect(m.body.displayMode).toBe('fill');
    expect((await call(svc, owner, 'PUT', `/api/files/${fileId}/display-mode`, { displayMode: 'zoom' })).status).toBe(
      400,
    );
    const t = await call(svc, owner, 'PUT', `/api/files/${fileId}`, { tags: [' A ', 'a', 'B', ''] });
    expect(t.body.tags).toEqual(['a', 'b']);
    const tooMany = await call(svc, owner, 'PUT', `/api/files/${fileId}`, {
      tags: Array.from({ length: 21 }, (_, i) => `x${i}`),
    });
    expect(tooMany.status).toBe(400);
    expect((await call(svc, owner, 'PUT', `/api/files/${fileId}`, { tags: ['x'.repeat(31)] })).status).toBe(400);
    const title = await call(svc, owner, 'PUT', `/api/files/${fileId}`, { title: '新しい題名' });
    expect(title.body).toMatchObject({ title: '新しい題名', tags: ['a', 'b'] });
    const updates = await announced('files.file.updated.v1', fileId);
    expect(updates.some((e) => e.title === '新しい題名')).toBe(true);
  });

  it('a member’s edit and the conversion’s writes of one file at the same moment both hold', async () => {
    // FerretDB writes an update as read-then-write: without the file's lock, a progress write beside a rename wrote
    // the old title back (measured: 153 of 200 pairs lost one)
    const { files } = svc.server.context.data;
    const original = await files.findById(fileId);
    const rounds = Array.from({ length: 25 }, (_, i) => i);
    for (const i of rounds) {
      await Promise.all([
        files.updateOwned(fileId, owner, { title: `title ${i}` }),
        files.updateWhere(fileId, { status: 'private' }, { $set: { 'conversion.pagesDone': i } }),
        files.update(fileId, { 'conversion.attempts': i }),
      ]);
      const f = await files.findById(fileId);
      expect([f?.title, f?.conversion?.pagesDone, f?.conversion?.attempts]).toEqual([`title ${i}`, i, i]);
    }
    // as it was, for the tests after this one
    await files.updateOwned(fileId, owner, { title: original?.title });
    await files.update(fileId, {
      'conversion.pagesDone': original?.conversion?.pagesDone,
      'conversion.attempts': original?.conversion?.attempts,
    });
  });

  it('publish needs a plan; fees are the plans’; the listing is announced; unpublish is announced', async () => {
    const noPlan = await call(svc, owner, 'PUT', `/api/files/${fileId}/publish`, { isPublished: true });
    expect(noPlan.status).toBe(400);
    expect(noPlan.body.issues[0].message).toBe('公開する場合は価格プランを選択してください');
    const badPlan = await call(svc, owner, 'PUT', `/api/files/${fileId}/publish`, {
      isPublished: true,
      publishPrice: 2000,
    });
    expect(badPlan.status).toBe(400);
    // selling without an author name (none given, none recorded): refused with its code, nothing changes
    const noAuthor = await call(svc, owner, 'PUT', `/api/files/${fileId}/publish`, {
      isPublished: true,
      publishPrice: 5000,
    });
    expect([noAuthor.status, noAuthor.body.code]).toEqual([400, 'AUTHOR_NAME_REQUIRED']);
    expect((await call(svc, owner, 'GET', `/api/files/${fileId}?signage_mode=true`)).body.isPublished).toBe(false);
    expect(await announced('files.file.published.v1', fileId)).toEqual([]);

    const pub = await call(svc, owner, 'PUT', `/api/files/${fileId}/publish`, {
      isPublished: true,
      publishPrice: 5000,
      copyrightInfo: { authorName: '山田太郎', companyName: '山田商店' },
    });
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({ isPublished: true, publishPrice: 5000, status: 'private' });
    const listing = await waitFor('listing', async () => (await announced('files.file.published.v1', fileId))[0]);
    expect(listing).toMatchObject({
      ownerId: owner,
      publishPrice: 5000,
      pageCount: 3,
      title: '新しい題名',
      kind: 'pdf',
    });
    // the buyer is told who holds the rights
    expect(listing.copyright).toEqual({ authorName: '山田太郎', companyName: '山田商店', copyrightText: null });

    const copyright = await call(svc, owner, 'GET', `/api/files/${fileId}/copyright`);
    expect(copyright.body).toEqual({ authorName: '山田太郎', companyName: '山田商店', copyrightText: null });
    const checks = await svc.server.context.data.files.copyrightChecksOf(fileId);
    expect(checks.map((c) => c.checkType).sort()).toEqual(['text_analysis', 'user_confirmation']);

    // the author profile becomes the default the publish form offers for another file
    const other = await upload(svc, owner, pdf, { title: 'other' });
    const offered = await call(svc, owner, 'GET', `/api/files/${other.body.id}/copyright`);
    expect(offered.body).toEqual({ authorName: '山田太郎', companyName: '山田商店', copyrightText: null });
    // a file still processing cannot be published
    const early = await call(svc, owner, 'PUT', `/api/files/${other.body.id}/publish`, {
      isPublished: true,
      publishPrice: 3000,
      copyrightInfo: { authorName: '山田太郎' },
    });
    if (early.status !== 200) expect(early.body.code).toBe('FILE_NOT_READY');
    await waitConverted(svc, owner, other.body.id);
    await call(svc, owner, 'DELETE', `/api/files/${other.body.id}`);

    const unpub = await call(svc, owner, 'PUT', `/api/files/${fileId}/publish`, { isPublished: false });
    expect(unpub.body.isPublished).toBe(false);
    await waitFor('unpublished', async () => (await announced('files.file.unpublished.v1', fileId))[0]);
    await call(svc, owner, 'PUT', `/api/files/${fileId}/publish`, { isPublished: true, publishPrice: 3000 });
  });

  it('a buyer with an active licence can play the file and its images; expired or none cannot', async () => {
    const pages = (await call(svc, owner, 'GET', `/api/files/${fileId}/pages`)).body;
    expect((await call(svc, buyer, 'GET', `/api/files/${fileId}?signage_mode=true`)).status).toBe(404);
    const refusedPath: string = pages[0].imagePath;
    expect((await fetch(`${svc.server.url}${refusedPath}`, { headers: identityHeaders(svc, buyer) })).status).toBe(404);

    const purchaseId = crypto.randomUUID();
    await publishEvent(svc, 'marketplace.purchase.completed.v1', {
      purchaseId,
      buyerId: buyer,
      fileId,
      sellerId: owner,
      price: 3000,
      expiresAt: new Date(Date.now() + 30 * 86400_000).toISOString(),
    });
    const file = await waitFor('licence', async () => {
      const r = await call(svc, buyer, 'GET', `/api/files/${fileId}?signage_mode=true`);
      return r.status === 200 ? r.body : undefined;
    });
    expect(file).toMatchObject({ id: fileId, access: 'purchased' });
    expect(file.licenceExpiresAt).toBeTruthy();
    // without signage mode only the owner may read it
    expect((await call(svc, buyer, 'GET', `/api/files/${fileId}`)).status).toBe(404);
    const bp = await call(svc, buyer, 'GET', `/api/files/${fileId}/pages?signage_mode=true`);
    expect(bp.body).toHaveLength(3);
    const otherPath = pages
      .flatMap((p: { imagePath: string; thumbPath: string }) => [p.imagePath, p.thumbPath])
      .find((p: string) => p !== refusedPath);
    expect((await fetch(`${svc.server.url}${otherPath}`, { headers: identityHeaders(svc, buyer) })).status).toBe(200);
    // the image refused a moment before the purchase too: a refusal is not kept here (the gateway keeps it 2 s)
    expect((await fetch(`${svc.server.url}${refusedPath}`, { headers: identityHeaders(svc, buyer) })).status).toBe(200);
    const acc = (await call(svc, buyer, 'GET', '/api/files/accessible')).body;
    expect(acc).toHaveLength(1);
    expect(acc[0]).toMatchObject({ id: fileId, access: 'purchased' });
    expect((await call(svc, owner, 'GET', `/api/files/${fileId}/purchasers`)).body).toEqual({
      hasActivePurchasers: true,
      activePurchaserCount: 1,
    });
    // the buyer cannot change or delete it
    expect((await call(svc, buyer, 'DELETE', `/api/files/${fileId}`)).status).toBe(404);

    await publishEvent(svc, 'marketplace.licence.expired.v1', {
      purchaseId,
      buyerId: buyer,
      fileId,
      expiredAt: new Date().toISOString(),
    });
    await waitFor(
      'expiry',
      async () => (await call(svc, buyer, 'GET', `/api/files/${fileId}?signage_mode=true`)).status === 404,
    );
    expect((await call(svc, buyer, 'GET', '/api/files/accessible')).body).toEqual([]);
    expect((await call(svc, owner, 'GET', `/api/files/${fileId}/purchasers`)).body.activePurchaserCount).toBe(0);
  });

  it('the gateway reads an image’s bytes without a second decision: 401 anonymous, 404 for no image', async () => {
    const page = (await call(svc, owner, 'GET', `/api/files/${fileId}/pages`)).body[0];
    const key: string = page.imagePath.slice('/media/'.length);
    const served = await fetch(`${svc.server.url}${page.imagePath}`, { headers: identityHeaders(svc, owner) });
    const bytes = await fetch(`${svc.server.url}/internal/media/${key}`, { headers: identityHeaders(svc, owner) });
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await bytes.arrayBuffer()).equals(Buffer.from(await served.arrayBuffer()))).toBe(true);
    expect((await fetch(`${svc.server.url}/internal/media/${key}`)).status).toBe(401);
    for (const missing of [`${'0'.repeat(64)}.webp`, 'not-an-image.webp']) {
      const res = await fetch(`${svc.server.url}/internal/media/${missing}`, { headers: identityHeaders(svc, owner) });
      expect(res.status).toBe(404);
      expect((await res.json()).code).toBe('NOT_FOUND');
    }
  });

  it('another member’s file id gets 404 from every call, and anonymous calls 401', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/api/files/${fileId}`],
      ['GET', `/api/files/${fileId}?signage_mode=true`],
      ['GET', `/api/files/${fileId}/pages`],
      ['GET', `/api/files/${fileId}/pages?signage_mode=true`],
      ['GET', `/api/files/${fileId}/copyright`],
      ['GET', `/api/files/${fileId}/purchasers`],
      ['PUT', `/api/files/${fileId}/duration`, { displayDuration: 10 }],
      ['PUT', `/api/files/${fileId}/display-mode`, { displayMode: 'fill' }],
      ['PUT', `/api/files/${fileId}`, { tags: ['x'] }],
      ['PUT', `/api/files/${fileId}/publish`, { isPublished: false }],
      ['DELETE', `/api/files/${fileId}`],
    ];
    for (const [method, path, body] of calls) {
      const r = await call(svc, stranger, method, path, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.code).toBe('FILE_NOT_FOUND');
      const missing = await call(svc, stranger, method, path.replace(fileId, crypto.randomUUID()), body);
      expect(missing.body).toEqual(r.body); // same answer as a file that does not exist
      expect((await call(svc, undefined, method, path, body)).status).toBe(401);
    }
    const f = (await call(svc, owner, 'GET', `/api/files/${fileId}`)).body;
    expect(f).toMatchObject({ displayMode: 'fill', tags: ['a', 'b'], access: 'owner' });
  });

  it('monthly earnings (sales only) and spending come from billing’s points events', async () => {
    // the registration bonus is an earn row, but no sale: the dashboard's earnings from sales stay 0
    await publishEvent(svc, 'billing.points.changed.v1', {
      userId: owner,
      balance: 1300,
      entryId: crypto.randomUUID(),
      amount: 300,
      type: 'earn',
      occurredAt: new Date().toISOString(),
    });
    await publishEvent(svc, 'billing.points.changed.v1', {
      userId: owner,
      balance: 300,
      entryId: crypto.randomUUID(),
      amount: -1000,
      type: 'spend',
      occurredAt: new Date().toISOString(),
    });
    const before = await waitFor('points', async () => {
      const s = (await call(svc, owner, 'GET', '/api/dashboard/stats')).body;
      return s.monthlySpent === 1000 ? s : undefined;
    });
    expect(before).toMatchObject({ user: { points: 300 }, monthlyEarnings: 0, monthlySpent: 1000 });
    // a sale's proceeds (billing marks the seller's leg)
    await publishEvent(svc, 'billing.points.changed.v1', {
      userId: owner,
      balance: 2300,
      entryId: crypto.randomUUID(),
      amount: 2000,
      type: 'earn',
      occurredAt: new Date().toISOString(),
      sale: true,
    });
    const stats = await waitFor('the sale', async () => {
      const s = (await call(svc, owner, 'GET', '/api/dashboard/stats')).body;
      return s.monthlyEarnings === 2000 ? s : undefined;
    });
    expect(stats).toMatchObject({ user: { points: 2300 }, monthlyEarnings: 2000, monthlySpent: 1000 });
  });

  it('delete removes pages, objects, playlist items and the slot, and announces it; buyers lose access', async () => {
    const pl = await call(svc, owner, 'POST', '/api/playlists', { name: 'ロビー' });
    expect(pl.status).toBe(200);
    const item = await call(svc, owner, 'POST', `/api/playlists/${pl.body.id}/items`, { fileId, position: 0 });
    expect(item.status).toBe(200);
    expect(
      (await call(svc, owner, 'POST', `/api/playlists/${pl.body.id}/items`, { fileId, position: 1 })).body.code,
    ).toBe('PLAYLIST_ITEM_EXISTS');
    expect((await call(svc, owner, 'GET', `/api/playlists/${pl.body.id}/items`)).body).toHaveLength(1);
    await publishEvent(svc, 'marketplace.purchase.completed.v1', {
      purchaseId: crypto.randomUUID(),
      buyerId: buyer,
      fileId,
      sellerId: owner,
      price: 3000,
      expiresAt: new Date(Date.now() + 30 * 86400_000).toISOString(),
    });
    await waitFor(
      'licence',
      async () => (await call(svc, buyer, 'GET', `/api/files/${fileId}?signage_mode=true`)).status === 200,
    );
    expect((await call(svc, owner, 'GET', `/api/files/${fileId}/purchasers`)).body.hasActivePurchasers).toBe(true);

    const pages = (await call(svc, owner, 'GET', `/api/files/${fileId}/pages`)).body;
    const keys = pages.flatMap((p: { imagePath: string; thumbPath: string }) => [p.imagePath, p.thumbPath]);
    const objects = await objectNames(svc);
    for (const k of keys) expect(objects).toContain(`pages/${k.slice('/media/'.length)}`);
    expect(objects).toContain(`originals/${fileId}`);

    const del = await call(svc, owner, 'DELETE', `/api/files/${fileId}`);
    expect(del).toMatchObject({ status: 200, body: { ok: true } });
    expect(await objectNames(svc)).toEqual([]);
    expect(await svc.server.context.data.models.pages.countDocuments({ fileId })).toBe(0);
    expect((await call(svc, owner, 'GET', `/api/playlists/${pl.body.id}/items`)).body).toEqual([]);
    expect(await svc.server.context.data.owners.slotsHeld(owner)).toBe(0);
    expect((await call(svc, owner, 'GET', `/api/files/${fileId}`)).status).toBe(404);
    expect((await call(svc, buyer, 'GET', `/api/files/${fileId}?signage_mode=true`)).status).toBe(404);
    const img = await fetch(`${svc.server.url}${pages[0].imagePath}`, { headers: identityHeaders(svc, owner) });
    expect(img.status).toBe(404);
    const deleted = await waitFor('deleted event', async () => (await announced('files.file.deleted.v1', fileId))[0]);
    expect(deleted).toMatchObject({ fileId, ownerId: owner });
    expect((await call(svc, owner, 'DELETE', `/api/files/${fileId}`)).status).toBe(404);
  });
});
