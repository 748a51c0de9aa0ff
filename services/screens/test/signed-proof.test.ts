// Signed proof of play end to end, against the real service: a display-like client makes a non-extractable key pair
// with WebCrypto as the display does, registers its public key when it collects its credential, signs and chains its
// batches; the owner (and a seller) download a proof that `pagecast-verify` accepts offline, and refuses once one
// record's seconds are changed; holes and late batches in a chain show; a revoked key verifies nothing after.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PlayProof, recordText, type SignedRecordFields } from '@pagecast/contracts';
import { verifyProof } from '@pagecast/verify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  announcer,
  assign,
  call,
  type Device,
  eventsHandled,
  member,
  postPlays,
  startReplica,
  useService,
} from './helpers';
import { makeSigner, type Signer, sha } from './display-signer';

const svc = useService();
const facts = announcer(svc);

/** Pairs a display that sends its public key with the poll that hands it its credential. */
async function pairSigning(owner: { userId: string }, signer: Signer | null): Promise<Device> {
  const started = await call(svc, null, 'POST', '/api/screens/pairing', undefined, {
    'x-forwarded-for': `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  });
  const { pairingId, pollSecret, code } = started.body as { pairingId: string; pollSecret: string; code: string };
  const paired = await call(svc, owner, 'POST', '/api/screens', { code, name: 'Lobby' });
  expect(paired.status).toBe(201);
  const polled = await call(svc, null, 'POST', `/api/screens/pairing/${pairingId}/poll`, {
    pollSecret,
    ...(signer ? { publicKey: { ...signer.jwk, ext: true, key_ops: ['verify'] } } : {}),
  });
  expect(polled.body.status).toBe('paired');
  const cookie = polled.headers.get('set-cookie') ?? '';
  const token = cookie.slice(cookie.indexOf('=') + 1, cookie.indexOf(';'));
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
  return { deviceId: claims.sub as string, screenId: paired.body.id as string, ownerId: owner.userId };
}

// answered as the judge stored each record (helpers' postPlays waits for it)
const send = (device: Device, body: unknown) => postPlays(svc, device, body);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const period = { from: day(Date.now() - 86_400_000), to: day(Date.now() + 86_400_000) };
const proofOf = async (who: { userId: string }, fileId: string, path = '/api/screens/plays/proof') => {
  const res = await call(
    svc,
    who,
    'GET',
    `${path}?fileId=${encodeURIComponent(fileId)}&from=${period.from}&to=${period.to}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.headers.get('content-disposition')).toContain('attachment; filename="proof-');
  return res.body as unknown as PlayProof;
};
let clock = 0;
// each test's screens are new: their records start from now
beforeEach(() => {
  clock = 0;
});
/** Back-to-back records from now on (each after the last one made). */
const rec = (fileId: string, seconds = 5, page = 1): SignedRecordFields => {
  const start = Math.max(clock, Date.now());
  clock = start + seconds * 1000 + 100;
  return { id: randomUUID(), fileId, page, startedAt: new Date(start).toISOString(), seconds };
};
/** A screen of `owner` given a playlist of `files`, with a display that signs. */
async function signingScreen(owner: { userId: string }, files: string[], alg: 'Ed25519' | 'ES256' = 'Ed25519') {
  const playlist = await facts.playlist(owner.userId, files, Date.now() - 60_000);
  await eventsHandled(svc);
  const signer = await makeSigner(alg);
  const device = await pairSigning(owner, signer);
  await assign(svc, owner, device.screenId, { kind: 'playlist', playlistId: playlist });
  // records are made from now on and sent at once (rec), so they end ahead of the real time: the display's heartbeat
  // says its clock is 5 minutes ahead, which is how far ahead its records may end
  const beat = await call(svc, { device }, 'POST', '/api/screens/device/heartbeat', {
    appVersion: 'test',
    screenSize: { width: 1, height: 1 },
    nowPlaying: null,
    sentAt: new Date(Date.now() + 300_000).toISOString(),
  });
  expect(beat.status).toBe(200);
  return { signer, device };
}
/** pagecast-verify run as its README says: `npx pagecast-verify proof.json` at the repository's root. */
function runVerify(proof: unknown): { code: number; out: string } {
  const path = join(mkdtempSync(join(tmpdir(), 'proof-')), 'proof.json');
  writeFileSync(path, JSON.stringify(proof));
  try {
    const out = execFileSync('npx', ['--no-install', 'pagecast-verify', path], {
      cwd: join(import.meta.dirname, '../../..'),
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return { code: 0, out };
  } catch (err) {
    const e = err as { status: number; stderr: string };
    return { code: e.status, out: e.stderr };
  }
}

describe('signed proof of play', () => {
  it("a downloaded proof verifies with pagecast-verify, and not once one record's seconds are changed", async () => {
    const owner = member();
    const file = await facts.file(owner.userId, 3, Date.now() - 3_600_000);
    const other = await facts.file(owner.userId, 1, Date.now() - 3_600_000);
    const { signer, device } = await signingScreen(owner, [file, other]);
    const batches = [[rec(file), rec(other)], [rec(other)], [rec(file, 7, 2), rec(file, 4, 3)]];
    for (const plays of batches) {
      const res = await send(device, await signer.next(plays));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ accepted: plays.length, refused: 0 });
    }
    const proof = await proofOf(owner, file);
    expect(proof.keys).toEqual([
      expect.objectContaining({
        id: signer.keyId,
        alg: 'Ed25519',
        revokedAt: null,
        screen: { id: device.screenId, name: 'Lobby' },
      }),
    ]);
    expect(proof.batches.map((b) => [b.seq, b.arrival])).toEqual([
      [1, 'in-order'],
      [2, 'in-order'],
      [3, 'in-order'],
    ]);
    // the other file's records show as digests only
    expect(proof.records.map((r) => r.record.fileId)).toEqual([file, file, file]);
    expect(proof.unsigned).toEqual({ records: 0 });
    const result = verifyProof(proof);
    expect(result).toMatchObject({ ok: true, complete: true, summary: { records: 3, seconds: 16, counted: 3 } });
    const valid = runVerify(proof);
    expect(valid.code, valid.out).toBe(0);
    expect(valid.out).toContain('3 signed record(s), 16 s claimed');

    const altered = structuredClone(proof);
    (altered.records[1] as { record: { seconds: number } }).record.seconds = 70;
    expect(verifyProof(altered).failures.map((f) => f.code)).toEqual(['record-altered']);
    const refused = runVerify(altered);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('FAIL [record-altered]');
  });

  it("a video's records name the second reached: signed and shown in the proof; one past the video's end is refused", async () => {
    const owner = member();
    // a 12.5 s video, as file conversion announces it once converted
    const video = await facts.file(owner.userId, 1, Date.now() - 3_600_000, undefined, 12_500);
    const { signer, device } = await signingScreen(owner, [video]);
    const twice = { ...rec(video, 25.1), reachedSecond: 12.5 };
    const past = { ...rec(video, 5), reachedSecond: 13.6 };
    const res = await send(device, await signer.next([twice, past]));
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ accepted: 1, refused: 1 });
    const proof = await proofOf(owner, video);
    expect(proof.records.map((r) => [r.record.reachedSecond, r.verdict])).toEqual([
      [12.5, { counted: 25.1 }],
      [13.6, { refused: 'past-video-end' }],
    ]);
    expect(verifyProof(proof)).toMatchObject({ ok: true, complete: true });
    // the reached second is signed: changed, the record no longer verifies
    const moved = structuredClone(proof);
    (moved.records[0] as { record: { reachedSecond: number } }).record.reachedSecond = 3;
    expect(verifyProof(moved).failures.map((f) => f.code)).toEqual(['record-altered']);
    // the owner's report counts the one and lists the other refused with its reason
    const refused = await call(svc, owner, 'GET', `/api/screens/plays/refused?from=${period.from}&to=${period.to}`);
    expect(JSON.stringify(refused.body)).toContain('past-video-end');
  });

  it('a screen with a key takes only batches its key signed, as signed; a refused batch stores nothing', async () => {
    const owner = member();
    const file = await facts.file(owner.userId, 1, Date.now() - 3_600_000);
    const { signer, device } = await signingScreen(owner, [file], 'ES256');
    const plays = [rec(file)];
    const unsigned = await send(device, { plays });
    const stranger = await (await makeSigner()).signAt(plays, 1, '');
    const good = await signer.signAt(plays, 1, '');
    const changed = { ...good.body, plays: [{ ...plays[0], seconds: 6 }] };
    for (const res of [unsigned, await send(device, stranger.body), await send(device, changed)]) {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('PLAY_SIGNATURE_INVALID');
    }
    expect((await proofOf(owner, file)).batches).toEqual([]);
    const report = await call(svc, owner, 'GET', `/api/screens/plays?from=${period.from}&to=${period.to}`);
    expect(report.body).toEqual([]);
    // the batch as signed (P-256 here) is taken, and sent again (a lost answer) counts once
    expect((await send(device, good.body)).body).toMatchObject({ accepted: 1 });
    expect((await send(device, good.body)).body).toMatchObject({ accepted: 0, duplicates: 1 });
    expect(verifyProof(await proofOf(owner, file))).toMatchObject({
      ok: true,
      complete: true,
      summary: { records: 1 },
    });
  });

  it('a missing batch is a hole in the proof, a late one is noted, another batch in a taken place is refused', async () => {
    const owner = member();
    const file = await facts.file(owner.userId, 1, Date.now() - 3_600_000);
    const { signer, device } = await signingScreen(owner, [file]);
    const [one, two, three] = [
      await signer.next([rec(file)]),
      await signer.next([rec(file)]),
      await signer.next([rec(file)]),
    ];
    expect((await send(device, one)).status).toBe(200);
    expect((await send(device, three)).status).toBe(200);
    const holed = verifyProof(await proofOf(owner, file));
    expect(holed).toMatchObject({ ok: true, complete: false });
    expect(holed.gaps.map((g) => [g.code, g.seq])).toEqual([['chain-gap', 2]]);
    expect(holed.notes.map((n) => [n.code, n.seq])).toEqual([['arrived-after-gap', 3]]);

    expect((await send(device, two)).status).toBe(200);
    const filled = verifyProof(await proofOf(owner, file));
    expect(filled).toMatchObject({ ok: true, complete: true, summary: { records: 3 } });
    expect(filled.notes.map((n) => [n.code, n.seq])).toEqual([
      ['arrived-late', 2],
      ['arrived-after-gap', 3],
    ]);

    // a fork: another batch signed in place 2 is refused, with where the chain stands
    const fork = await signer.signAt([rec(file)], 2, (await proofOf(owner, file)).batches[1]?.prev ?? '');
    const res = await send(device, fork.body);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'PLAY_CHAIN_CONFLICT', details: { head: { seq: 3 } } });
  });

  it('batches sent one after another are checked without reading their neighbours, and the chain rules still hold', async () => {
    const owner = member();
    const file = await facts.file(owner.userId, 1, Date.now() - 3_600_000);
    const { signer, device } = await signingScreen(owner, [file]);
    const places = vi.spyOn(svc.server.context.data.signed, 'batch');
    const replica = await startReplica(svc);
    try {
      let head = { seq: 0, hash: '' };
      const next = async () => {
        const signed = await signer.signAt([rec(file)], head.seq + 1, head.hash);
        head = { seq: head.seq + 1, hash: signed.hash };
        return signed.body;
      };
      expect((await send(device, await next())).status).toBe(200);
      const afterFirst = places.mock.calls.length;
      for (let i = 0; i < 2; i++) expect((await send(device, await next())).status).toBe(200);
      // places 2 and 3 follow the place this instance stored: no read of a neighbour
      expect(places.mock.calls.length).toBe(afterFirst);

      // a fork at the next place (another predecessor named) is refused, with where the chain stands
      const fork = await signer.signAt([rec(file)], 4, await sha('another predecessor'));
      const forked = await send(device, fork.body);
      expect(forked.status).toBe(409);
      expect(forked.body).toMatchObject({ code: 'PLAY_CHAIN_CONFLICT', details: { head: { seq: 3 } } });

      // place 4 taken through the other instance, its answer lost: the same batch again here is a resend
      const four = await next();
      expect((await postPlays(replica, device, four)).body).toMatchObject({ accepted: 1 });
      const again = await send(device, four);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ accepted: 0, duplicates: 1 });
      // and another batch in that place, through here, is a conflict
      const other = await signer.signAt([rec(file)], 4, (await proofOf(owner, file)).batches[2]?.prev ?? '');
      expect((await send(device, other.body)).status).toBe(409);
      expect((await send(device, await next())).status).toBe(200);

      const proof = verifyProof(await proofOf(owner, file));
      expect(proof).toMatchObject({ ok: true, complete: true, summary: { records: 5 } });
      expect(proof.notes).toEqual([]);
    } finally {
      places.mockRestore();
      await replica.close();
    }
  });

  it("a revoked display's key verifies nothing after its revocation", async () => {
    const owner = member();
    const file = await facts.file(owner.userId, 1, Date.now() - 3_600_000);
    const { signer, device } = await signingScreen(owner, [file]);
    const played = rec(file, 1);
    await new Promise((r) => setTimeout(r, Date.parse(played.startedAt) + 1500 - Date.now()));
    expect((await send(device, await signer.next([played]))).status).toBe(200);
    expect((await call(svc, owner, 'DELETE', `/api/screens/${device.screenId}`)).status).toBe(200);
    // the service takes nothing more from it
    const after = await signer.next([rec(file)]);
    expect((await send(device, after)).status).toBe(401);
    const proof = await proofOf(owner, file);
    expect(proof.keys[0]?.revokedAt).not.toBeNull();
    expect(verifyProof(proof)).toMatchObject({ ok: true, complete: true });
    // the key (stolen, say) signs on after its revocation: a proof holding that batch does not verify
    const record = after.plays[0] as SignedRecordFields;
    const forged = structuredClone(proof);
    forged.batches.push({
      ...after.signed,
      records: [await sha(recordText(record))],
      receivedAt: new Date().toISOString(),
      arrival: 'in-order',
    });
    forged.records.push({ key: signer.keyId, seq: 2, index: 0, record });
    const result = verifyProof(forged);
    expect(result.ok).toBe(false);
    expect(result.failures.map((f) => f.code)).toEqual(['after-revocation', 'record-batch']);
  });

  it('a display paired before signing binds its key on first use; another key is refused', async () => {
    const owner = member();
    const file = await facts.file(owner.userId, 1, Date.now() - 3_600_000);
    const playlist = await facts.playlist(owner.userId, [file], Date.now() - 60_000);
    await eventsHandled(svc);
    const device = await pairSigning(owner, null);
    await assign(svc, owner, device.screenId, { kind: 'playlist', playlistId: playlist });
    // unsigned, as before: counted, and in no proof but as the service's word
    expect((await send(device, { plays: [rec(file)] })).body).toMatchObject({ accepted: 1 });
    // a point off the curve is refused before anything is bound
    const offCurve = { kty: 'EC', crv: 'P-256', x: 'A'.repeat(43), y: 'A'.repeat(43) };
    const bad = await call(svc, { device }, 'POST', '/api/screens/device/key', { publicKey: offCurve });
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION']);
    const signer = await makeSigner();
    const bound = await call(svc, { device }, 'POST', '/api/screens/device/key', { publicKey: signer.jwk });
    expect(bound.body).toEqual({ keyId: signer.keyId, head: { seq: 0, hash: '' } });
    // from now on only signed batches
    expect((await send(device, { plays: [rec(file)] })).body.code).toBe('PLAY_SIGNATURE_INVALID');
    expect((await send(device, await signer.next([rec(file)]))).status).toBe(200);
    const again = await call(svc, { device }, 'POST', '/api/screens/device/key', { publicKey: signer.jwk });
    expect(again.body).toMatchObject({ keyId: signer.keyId, head: { seq: 1 } });
    const other = await makeSigner();
    const refused = await call(svc, { device }, 'POST', '/api/screens/device/key', { publicKey: other.jwk });
    expect([refused.status, refused.body.code]).toEqual([409, 'SCREEN_KEY_BOUND']);
    const proof = await proofOf(owner, file);
    expect(proof.unsigned).toEqual({ records: 1 });
    expect(verifyProof(proof)).toMatchObject({ ok: true, complete: true, summary: { records: 1 } });
  });

  it("a seller's proof covers buyers' screens, names no screen, shows only counted records, and verifies", async () => {
    const seller = member();
    const buyer = member();
    const now = Date.now();
    const file = await facts.file(seller.userId, 2, now - 3_600_000);
    await facts.purchase(buyer.userId, file, seller.userId, now - 3_600_000, now + 30 * 86_400_000);
    await eventsHandled(svc);
    const { signer, device } = await signingScreen(buyer, [file]);
    const counted = rec(file);
    const noPage = rec(file, 5, 9); // refused: no such page
    expect((await send(device, await signer.next([counted, noPage]))).body).toMatchObject({ accepted: 1, refused: 1 });
    const proof = await proofOf(seller, file, '/api/screens/plays/sold/proof');
    expect(proof.scope.kind).toBe('seller');
    expect(proof.keys.map((k) => k.screen)).toEqual([undefined]);
    expect(JSON.stringify(proof)).not.toContain(buyer.userId);
    expect(JSON.stringify(proof)).not.toContain(device.screenId);
    expect(proof.records.map((r) => [r.record.id, r.verdict])).toEqual([[counted.id, { counted: 5 }]]);
    expect(verifyProof(proof)).toMatchObject({ ok: true, complete: true, summary: { records: 1 } });
    // the buyer sees both, with the refusal's reason
    expect((await proofOf(buyer, file)).records.map((r) => r.verdict)).toEqual([
      { counted: 5 },
      { refused: 'no-such-page' },
    ]);
    // a member who did not sell it gets nothing
    const res = await call(
      svc,
      buyer,
      'GET',
      `/api/screens/plays/sold/proof?fileId=${file}&from=${period.from}&to=${period.to}`,
    );
    expect([res.status, res.body.code]).toEqual([404, 'FILE_NOT_FOUND']);
  });
});
