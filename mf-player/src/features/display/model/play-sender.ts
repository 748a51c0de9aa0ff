// Sends proof of play, signed (signed proof of play): each batch is signed by the display's key over its place in
// the key's chain (number, previous batch's hash) and each record's digest, kept as signed until the service answers
// (a resend is the same batch), and the chain moves on only once the service stored it. Without WebCrypto (a page
// served over plain http to another host) the display sends unsigned batches, as displays did before.
import {
  batchText,
  type ChainHead,
  type DisplayKeyResponse,
  type DisplayPublicKey,
  type PlayBatchRequest,
  type PlayRecord,
  recordText,
} from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';
import { type DisplayKey, type KeyStore, keyForScreen, sha256, signText } from './display-keys';
import type { PlayLog, PlayLogStorage } from './play-log';

const CHAIN_KEY = 'pagecast.screen.chain';
const OUTBOX_KEY = 'pagecast.screen.outbox';

interface Envelope {
  /** the key that signed it (null: unsigned) */
  keyId: string | null;
  body: PlayBatchRequest;
  /** its hash: the chain's head once the service has it */
  hash: string;
}

export interface PlaySenderDeps {
  log: PlayLog;
  storage: PlayLogStorage & { removeItem(key: string): void };
  keys: KeyStore;
  subtle: SubtleCrypto | null;
  screenId: string;
  send(body: PlayBatchRequest): Promise<unknown>;
  registerKey(publicKey: DisplayPublicKey): Promise<DisplayKeyResponse>;
  now?: () => number;
}

export type FlushOutcome = 'done' | 'offline' | 'unpaired';

export function createPlaySender(d: PlaySenderDeps) {
  const now = d.now ?? Date.now;
  const read = <T>(name: string): T | null => {
    try {
      return JSON.parse(d.storage.getItem(name) ?? 'null') as T | null;
    } catch {
      return null;
    }
  };
  const write = (name: string, value: unknown) => {
    try {
      d.storage.setItem(name, JSON.stringify(value));
    } catch {
      // storage full: the chain starts again from what the service says (PLAY_CHAIN_CONFLICT tells it)
    }
  };
  const chainOf = (key: DisplayKey): ChainHead => {
    const kept = read<ChainHead & { keyId: string }>(CHAIN_KEY);
    return kept?.keyId === key.keyId ? { seq: kept.seq, hash: kept.hash } : { seq: 0, hash: '' };
  };
  const setChain = (key: DisplayKey, head: ChainHead) => write(CHAIN_KEY, { keyId: key.keyId, ...head });

  async function sign(key: DisplayKey | null, plays: PlayRecord[], after: ChainHead | null): Promise<Envelope> {
    if (!key || !d.subtle || !after) return { keyId: null, body: { plays }, hash: '' };
    const subtle = d.subtle;
    const header = { key: key.keyId, seq: after.seq + 1, prev: after.hash, sentAt: new Date(now()).toISOString() };
    const records = await Promise.all(plays.map((p) => sha256(subtle, recordText(p))));
    const text = batchText({ ...header, records });
    const signature = await signText(subtle, key, text);
    return { keyId: key.keyId, body: { plays, signed: { ...header, signature } }, hash: await sha256(subtle, text) };
  }

  // undefined: not asked yet; null: this display sends unsigned batches
  let key: DisplayKey | null | undefined;
  /** The key, bound at the service (the same key again is accepted), and the chain where the service has it. */
  async function ready(): Promise<DisplayKey | null> {
    if (key !== undefined) return key;
    if (!d.subtle) {
      key = null;
      return key;
    }
    const mine = await keyForScreen(d.keys, d.subtle, d.screenId);
    try {
      const { head } = await d.registerKey(mine.jwk);
      // nothing waiting to be answered: the service's head is the chain's (it may be ahead of a storage lost here)
      if (!read<Envelope>(OUTBOX_KEY)) setChain(mine, head);
      key = mine;
    } catch (err) {
      // another key is bound (this display lost its key: SCREEN_KEY_BOUND), or its key is refused: it cannot prove
      // its plays until it is paired again (401 is unpaired; anything else, offline: asked again next time)
      if (err instanceof HttpError && (err.status === 409 || err.status === 400)) key = null;
      else throw err;
    }
    return key;
  }

  return {
    /** Sends every batch the log holds, oldest first; stops when offline or unpaired. */
    async flush(): Promise<FlushOutcome> {
      let signer: DisplayKey | null;
      try {
        signer = await ready();
      } catch (err) {
        return err instanceof HttpError && err.status === 401 ? 'unpaired' : 'offline';
      }
      for (;;) {
        let env = read<Envelope>(OUTBOX_KEY);
        if (env && env.keyId !== (signer?.keyId ?? null)) {
          // made under another key (a pairing ago): its records are signed again under this one
          env = await sign(signer, env.body.plays, signer ? chainOf(signer) : null);
          write(OUTBOX_KEY, env);
        }
        if (!env) {
          const batch = d.log.batch();
          if (batch.length === 0) return 'done';
          env = await sign(signer, batch, signer ? chainOf(signer) : null);
          // kept as signed (a resend, after a reload too, is the same batch); its records stay in the log until the
          // service answers for them
          write(OUTBOX_KEY, env);
        }
        const answered = (e: Envelope) => {
          d.log.remove(e.body.plays.map((r) => r.id));
          d.storage.removeItem(OUTBOX_KEY);
        };
        try {
          await d.send(env.body);
        } catch (err) {
          if (!(err instanceof HttpError)) return 'offline';
          if (err.status === 401) return 'unpaired';
          if (err.code === 'PLAY_CHAIN_CONFLICT' && signer) {
            // the service's chain is elsewhere (storage lost here): signed again after its head
            const head = (err.data?.details as { head?: ChainHead } | undefined)?.head ?? { seq: 0, hash: '' };
            setChain(signer, head);
            write(OUTBOX_KEY, await sign(signer, env.body.plays, head));
            continue;
          }
          if (err.status === 400) {
            // refused whole (it would be refused again): dropped, and the chain does not move
            answered(env);
            continue;
          }
          return 'offline';
        }
        if (signer && env.body.signed) setChain(signer, { seq: env.body.signed.seq, hash: env.hash });
        answered(env);
      }
    },
  };
}
export type PlaySender = ReturnType<typeof createPlaySender>;
