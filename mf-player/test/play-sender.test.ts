// The display's signed proof of play (model/play-sender, model/display-keys) against a stand-in service that checks
// what the screens service checks, with the verifier's own code: batches signed by the key bound at pairing, chained,
// the same batch sent again after a lost answer, a refused batch not moving the chain, a chain resumed from the
// service's head after the display lost its own.
import { webcrypto } from 'node:crypto';
import {
  batchText,
  type DisplayPublicKey,
  type PlayBatchRequest,
  type PlayRecord,
  recordText,
  thumbprintText,
} from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';
import { sha256, verifyBatchSignature } from '@pagecast/verify';
import { describe, expect, it } from 'vitest';
import { keyForScreen, memoryKeyStore, pendingKey } from '../src/features/display/model/display-keys';
import { createPlayLog } from '../src/features/display/model/play-log';
import { createPlaySender } from '../src/features/display/model/play-sender';

const subtle = webcrypto.subtle as unknown as SubtleCrypto;
const memory = () => {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
};
let n = 0;
const record = (): PlayRecord => ({
  id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  fileId: 'f',
  page: 1,
  startedAt: new Date(1_700_000_000_000 + n * 10_000).toISOString(),
  seconds: 5,
});
const refusal = (status: number, body: unknown) => new HttpError(status, '', JSON.stringify(body));

/** What the service keeps and checks of one screen's batches (use-cases/signed-batch.ts). */
function standIn() {
  let bound: { keyId: string; alg: string; jwk: unknown } | null = null;
  const chain = new Map<number, { hash: string; body: PlayBatchRequest }>();
  const head = () => {
    const seq = Math.max(0, ...chain.keys());
    return { seq, hash: chain.get(seq)?.hash ?? '' };
  };
  return {
    chain,
    head,
    failNext: null as null | Error,
    async registerKey(jwk: DisplayPublicKey) {
      const keyId = sha256(thumbprintText(jwk));
      if (bound && bound.keyId !== keyId) throw refusal(409, { code: 'SCREEN_KEY_BOUND' });
      bound ??= { keyId, alg: jwk.kty === 'OKP' ? 'Ed25519' : 'ES256', jwk };
      return { keyId, head: head() };
    },
    async send(body: PlayBatchRequest) {
      const s = body.signed;
      if (!bound || !s || s.key !== bound.keyId) throw refusal(400, { code: 'PLAY_SIGNATURE_INVALID' });
      const text = batchText({ ...s, records: body.plays.map((p) => sha256(recordText(p))) });
      if (!verifyBatchSignature(bound.alg, bound.jwk, text, s.signature)) {
        throw refusal(400, { code: 'PLAY_SIGNATURE_INVALID' });
      }
      const hash = sha256(text);
      const taken = chain.get(s.seq);
      if (taken && taken.hash !== hash) throw refusal(409, { code: 'PLAY_CHAIN_CONFLICT', details: { head: head() } });
      if (s.seq > 1 && chain.get(s.seq - 1)?.hash !== s.prev) {
        throw refusal(409, { code: 'PLAY_CHAIN_CONFLICT', details: { head: head() } });
      }
      chain.set(s.seq, { hash, body });
      if (this.failNext) {
        const err = this.failNext;
        this.failNext = null;
        throw err; // stored, but the answer is lost
      }
      return {};
    },
  };
}

async function display(service: ReturnType<typeof standIn>, storage = memory(), keys = memoryKeyStore()) {
  const log = createPlayLog(storage);
  const sender = createPlaySender({
    log,
    storage,
    keys,
    subtle,
    screenId: 'scr-1',
    send: (b) => service.send(b),
    registerKey: (k) => service.registerKey(k),
  });
  return { log, sender, storage, keys };
}

describe('the display signs its proof of play', () => {
  it('makes a non-extractable key at pairing and signs with it once paired', async () => {
    const keys = memoryKeyStore();
    const pending = await pendingKey(keys, subtle);
    expect(pending?.privateKey.extractable).toBe(false);
    expect(await pendingKey(keys, subtle)).toBe(pending);
    const current = await keyForScreen(keys, subtle, 'scr-1');
    expect(current.keyId).toBe(pending?.keyId);
    expect(await keys.get('pending')).toBeUndefined();
    // paired again (another screen): a new key
    expect((await keyForScreen(keys, subtle, 'scr-2')).keyId).not.toBe(pending?.keyId);
    expect(await pendingKey(memoryKeyStore(), null)).toBeNull();
  });

  it('chains its batches; a lost answer sends the same batch again; a refused one does not move the chain', async () => {
    const service = standIn();
    const { log, sender } = await display(service);
    log.add(record());
    expect(await sender.flush()).toBe('done');
    service.failNext = new TypeError('network');
    log.add(record());
    expect(await sender.flush()).toBe('offline');
    expect(service.chain.size).toBe(2);
    expect(log.size).toBe(1); // kept until answered
    const stored = service.chain.get(2)?.body;
    // sent again as it was signed (the service takes it as a resend: same place, same hash)
    expect(await sender.flush()).toBe('done');
    expect(service.chain.get(2)?.body).toEqual(stored);
    // refused whole (400): dropped, and the next batch takes its place
    const send = service.send.bind(service);
    service.send = async () => {
      throw refusal(400, { code: 'PLAY_BATCH_INVALID' });
    };
    log.add(record());
    expect(await sender.flush()).toBe('done');
    service.send = send;
    log.add(record());
    expect(await sender.flush()).toBe('done');
    expect([...service.chain.keys()]).toEqual([1, 2, 3]);
    expect(service.chain.get(3)?.body.signed?.prev).toBe(service.chain.get(2)?.hash);
    expect(log.size).toBe(0);
  });

  it('resumes the chain from the service after losing its own (storage cleared, key kept)', async () => {
    const service = standIn();
    const keys = memoryKeyStore();
    const first = await display(service, memory(), keys);
    first.log.add(record());
    first.log.add(record());
    await first.sender.flush();
    const again = await display(service, memory(), keys);
    again.log.add(record());
    expect(await again.sender.flush()).toBe('done');
    expect([...service.chain.keys()]).toEqual([1, 2]);
  });

  it('sends nothing it cannot prove when another key is bound (pair again), and stops on 401', async () => {
    const service = standIn();
    await (await display(service)).sender.flush(); // binds a key
    const lost = await display(service); // a new key store: the key is gone
    lost.log.add(record());
    expect(await lost.sender.flush()).toBe('done'); // unsigned: refused and dropped
    expect(service.chain.size).toBe(0);
    const revoked = standIn();
    revoked.registerKey = async () => {
      throw refusal(401, { code: 'UNAUTHORIZED' });
    };
    expect(await (await display(revoked)).sender.flush()).toBe('unpaired');
  });
});
