// Where a display key's chain stands (data/signed-plays.ts head): found from the head's note by reads by `_id`, never
// by a query over every batch kept (FerretDB indexes only `_id`: that query read all of history at every display's
// start); exact past a gap; a key bound before the notes found once the old way. And a place in the chain taken once
// when two calls for it reach the same grouped insert, and the batches of many displays grouped into fewer inserts.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSignedPlayRepository, type SignedBatchDoc } from '../src/data/signed-plays';
import { useService } from './helpers';

const svc = useService();
const repo = () => createSignedPlayRepository(svc.server.context.conn);
const notes = () => svc.server.context.conn.collection<{ _id: string; seq: number }>('play_batch_heads');

const batchOf = (keyId: string, seq: number, arrival: SignedBatchDoc['arrival'] = 'in-order'): SignedBatchDoc => ({
  _id: `${keyId}#${seq}`,
  keyId,
  seq,
  prev: seq === 1 ? '' : `h${seq - 1}`,
  hash: `h${seq}`,
  sentAt: new Date().toISOString(),
  signature: 'sig',
  records: [],
  screenId: 'screen',
  ownerId: 'owner',
  fileIds: [],
  firstStart: new Date(),
  lastStart: new Date(),
  receivedAt: new Date(),
  arrival,
});

async function bindKey() {
  const keyId = `k-${randomUUID()}`;
  const signed = repo();
  await signed.bind({
    _id: `screen-${randomUUID()}`,
    keyId,
    alg: 'Ed25519',
    jwk: { kty: 'OKP', crv: 'Ed25519', x: 'x' },
    ownerId: 'owner',
    boundAt: new Date(),
  } as never);
  return { keyId, signed };
}

describe("a key's chain head", () => {
  it('is noted at 0 when the key is bound, then found past the note over many places and a gap', async () => {
    const { keyId, signed } = await bindKey();
    expect(await notes().findOne({ _id: keyId })).toMatchObject({ seq: 0 });
    expect(await signed.head(keyId)).toEqual({ seq: 0, hash: '' });
    for (let seq = 1; seq <= 70; seq++) expect(await signed.insert(batchOf(keyId, seq))).toBe(true);
    expect(await signed.head(keyId)).toEqual({ seq: 70, hash: 'h70' });
    // 71 and 72 never came: 73 is kept after a gap, and the note moves to it before it is answered
    expect(await signed.insert(batchOf(keyId, 73, 'after-gap'))).toBe(true);
    expect(await notes().findOne({ _id: keyId })).toMatchObject({ seq: 73 });
    for (let seq = 74; seq <= 80; seq++) await signed.insert(batchOf(keyId, seq));
    expect(await signed.head(keyId)).toEqual({ seq: 80, hash: 'h80' });
    // a late one below the head changes nothing
    await signed.insert(batchOf(keyId, 71, 'late'));
    expect(await signed.head(keyId)).toEqual({ seq: 80, hash: 'h80' });
  });

  it('of a key bound before the notes is found once by its batches, and noted', async () => {
    const keyId = `old-${randomUUID()}`;
    const batches = svc.server.context.conn.collection<SignedBatchDoc>('play_batches');
    await batches.insertMany(Array.from({ length: 40 }, (_, i) => batchOf(keyId, i + 1)));
    expect(await notes().findOne({ _id: keyId })).toBeNull();
    expect(await repo().head(keyId)).toEqual({ seq: 40, hash: 'h40' });
    expect(await notes().findOne({ _id: keyId })).toMatchObject({ seq: 40 });
    await repo().insert(batchOf(keyId, 41));
    expect(await repo().head(keyId)).toEqual({ seq: 41, hash: 'h41' });
  });

  it('a place asked for twice at once is taken by one: the other call is told so', async () => {
    const { keyId, signed } = await bindKey();
    const a = { ...batchOf(keyId, 1), hash: 'first' };
    const b = { ...batchOf(keyId, 1), hash: 'second' };
    const [ra, rb] = await Promise.all([signed.insert(a), signed.insert(b)]);
    expect([ra, rb].filter(Boolean)).toHaveLength(1);
    const stored = await signed.batch(keyId, 1);
    expect(stored?.hash).toBe(ra ? 'first' : 'second');
  });

  it('the batches of a fleet arriving one after another, not together, go into fewer inserts than batches', async () => {
    const signed = repo();
    const before = signed.insertWrites();
    // 40 displays' next batches, 12 ms apart (a write takes a few ms: without waiting, each was an insert of its own)
    const stored: Array<Promise<boolean>> = [];
    for (let i = 0; i < 40; i++) {
      stored.push(signed.insert(batchOf(`k-${randomUUID()}`, 1)));
      await new Promise((r) => setTimeout(r, 12));
    }
    expect(await Promise.all(stored)).toEqual(Array.from({ length: 40 }, () => true));
    const writes = signed.insertWrites() - before;
    expect(writes).toBeGreaterThan(1);
    expect(writes).toBeLessThanOrEqual(28);
  });
});
