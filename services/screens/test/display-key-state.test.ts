// What each instance holds of the screens' signing keys (data/signed-plays.ts, README "Signed proof of play"): an
// unsigned batch from a screen with no key reads `screen_keys` once, not per batch; a key bound through another
// instance is honoured at once (its event), and after a missed event within the "no key" entry's age, or at once for a
// signed batch (read again before it is refused); an unpaired screen's batches are refused on every instance.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DisplayKeyDoc, KEY_ABSENT_TTL_MS } from '../src/data/signed-plays';
import { makeSigner, type Signer } from './display-signer';
import { call, type Device, member, pairDisplay, startReplica, startService, type TestService } from './helpers';

let a: TestService;
let b: TestService;
beforeAll(async () => {
  a = await startService();
  b = await startReplica(a);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

/** The reads of `screen_keys` naming `screenId` that `svc` makes while `run` runs (mongoose's operation events). */
async function keyReads(svc: TestService, screenId: string, run: () => Promise<void>): Promise<number> {
  let reads = 0;
  const listener = (op: { collectionName?: string; params?: unknown }) => {
    if (op.collectionName === 'screen_keys' && JSON.stringify(op.params ?? null).includes(screenId)) reads++;
  };
  const { conn } = svc.server.context;
  conn.on('operation-start', listener);
  try {
    await run();
  } finally {
    conn.off('operation-start', listener);
  }
  return reads;
}

/** One record, a few seconds ago (the judge's verdict does not matter here: what the intake answers does). */
const record = () => ({
  id: randomUUID(),
  fileId: randomUUID(),
  page: 1,
  startedAt: new Date(Date.now() - 10_000).toISOString(),
  seconds: 2,
});
const unsigned = (svc: TestService, device: Device) =>
  call(svc, { device }, 'POST', '/api/screens/device/plays', { plays: [record()] });
const signed = async (svc: TestService, device: Device, signer: Signer) =>
  call(svc, { device }, 'POST', '/api/screens/device/plays', await signer.next([record()]));
const bindOn = (svc: TestService, device: Device, signer: Signer) =>
  call(svc, { device }, 'POST', '/api/screens/device/key', { publicKey: signer.jwk });

async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A key bound as a binder that died before its event left it: in the database, announced to nobody. */
async function bindSilently(svc: TestService, device: Device, signer: Signer): Promise<void> {
  const doc: DisplayKeyDoc = {
    _id: device.screenId,
    keyId: signer.keyId,
    alg: 'Ed25519',
    jwk: signer.jwk as DisplayKeyDoc['jwk'],
    ownerId: device.ownerId,
    boundAt: new Date(),
  };
  await svc.server.context.conn.collection<DisplayKeyDoc>('screen_keys').insertOne(doc);
}

describe('the screens’ key state in memory', () => {
  it('a screen with no key: its unsigned batches are taken, and only the first reads screen_keys', async () => {
    const { device } = await pairDisplay(a, member());
    const first = await keyReads(a, device.screenId, async () => {
      expect((await unsigned(a, device)).status).toBe(200);
    });
    expect(first).toBe(1);
    const later = await keyReads(a, device.screenId, async () => {
      for (let i = 0; i < 5; i++) expect((await unsigned(a, device)).status).toBe(200);
    });
    expect(later).toBe(0);
  });

  it('a key bound through B is honoured on A at once: unsigned refused, signed taken', async () => {
    const { device } = await pairDisplay(a, member());
    expect((await unsigned(a, device)).status).toBe(200); // A now holds "no key"
    const signer = await makeSigner();
    expect((await bindOn(b, device, signer)).status).toBe(200);
    // the binding's event reaches A within milliseconds, long before the "no key" entry's age
    const refused = await eventually(async () => {
      const res = await unsigned(a, device);
      if (res.status === 200) return false;
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('PLAY_SIGNATURE_INVALID');
      return true;
    });
    expect(refused).toBe(true);
    expect((await signed(a, device, signer)).status).toBe(200);
    // a key once known is held: no read per batch
    expect(
      await keyReads(a, device.screenId, async () => {
        expect((await signed(a, device, signer)).status).toBe(200);
        expect((await unsigned(a, device)).status).toBe(400);
      }),
    ).toBe(0);
  });

  it('a missed event: a signed batch is read again before it is refused', async () => {
    const { device } = await pairDisplay(a, member());
    expect((await unsigned(a, device)).status).toBe(200);
    const signer = await makeSigner();
    await bindSilently(a, device, signer);
    const res = await signed(a, device, signer);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // and the key read then is held: the unsigned batch after it is refused
    expect((await unsigned(a, device)).status).toBe(400);
  });

  it('a missed event: the "no key" entry lasts its age at most, then unsigned batches are refused', async () => {
    const { device } = await pairDisplay(a, member());
    expect((await unsigned(a, device)).status).toBe(200);
    await bindSilently(a, device, await makeSigner());
    // within its age A still takes an unsigned batch (the window a lost event leaves) ...
    expect((await unsigned(a, device)).status).toBe(200);
    // ... and once it has passed, reads again and refuses (B never held "no key": it reads and refuses at once)
    expect((await unsigned(b, device)).status).toBe(400);
    const offset = a.clock.offsetMs;
    a.clock.offsetMs += KEY_ABSENT_TTL_MS + 1000;
    try {
      const res = await unsigned(a, device);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('PLAY_SIGNATURE_INVALID');
    } finally {
      a.clock.offsetMs = offset;
    }
  });

  it('an unpaired screen: its signed batches are refused on the other instance too', async () => {
    const owner = member();
    const { device, screenId } = await pairDisplay(a, owner);
    const signer = await makeSigner();
    expect((await bindOn(a, device, signer)).status).toBe(200);
    expect((await signed(a, device, signer)).status).toBe(200);
    expect((await call(b, owner, 'DELETE', `/api/screens/${screenId}`)).status).toBe(200);
    const refused = await eventually(async () => (await signed(a, device, signer)).status === 401);
    expect(refused).toBe(true);
    expect((await unsigned(a, device)).status).toBe(401);
  });
});
