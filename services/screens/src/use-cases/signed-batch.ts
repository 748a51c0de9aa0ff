// Signed proof of play, the display's side of the service: binding a display's public key to its screen (at the
// pairing poll, or on first use by a display paired before), checking each batch's signature before its records are
// judged, and keeping the batch as signed in its key's chain. record-plays calls checkSignedBatch and
// storeSignedBatch; nothing else there knows of signatures.
import type {
  DeviceIdentity,
  DisplayKeyResponse,
  DisplayPublicKey,
  PlayBatchRequest,
  SignedBatchHeader,
} from '@pagecast/contracts';
import { signatureAlgOf, subjects } from '@pagecast/contracts';
import { AppError, nameUuid } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { ScreenRecord } from '../data';
import type { Arrival, DisplayKeyDoc } from '../data/signed-plays';
import { keyIdOf, sha256, signedTextOf, usableKey, verifyBatchSignature } from '../domain';
import { screenOfDevice } from './device-screen';

export interface SignedBatch {
  key: DisplayKeyDoc;
  header: SignedBatchHeader;
  hash: string;
}

/** Binds `jwk` to the screen unless a key is bound already; answers the key bound now. */
export async function bindDisplayKey(
  ctx: ServiceContext,
  screen: ScreenRecord,
  jwk: DisplayPublicKey,
): Promise<DisplayKeyDoc> {
  // bound for good: a key nothing could verify would only refuse every batch of the screen
  if (!usableKey(jwk)) {
    throw new AppError('VALIDATION', {
      issues: [{ path: 'publicKey', message: 'not a usable public key', key: 'validation.invalid' }],
    });
  }
  const { bound, inserted } = await ctx.data.signed.bind({
    _id: screen._id,
    keyId: keyIdOf(jwk),
    alg: signatureAlgOf(jwk),
    // only the members that make the key (a JWK may carry key_ops, ext)
    jwk: jwk.kty === 'OKP' ? { kty: 'OKP', crv: jwk.crv, x: jwk.x } : { kty: 'EC', crv: jwk.crv, x: jwk.x, y: jwk.y },
    ownerId: screen.ownerId,
    boundAt: new Date(ctx.clock.ms()),
  });
  // every instance holds "no key" for screens without one: this ends it everywhere (through the outbox, so a crash
  // after the insert still announces it; an instance that misses it holds "no key" KEY_ABSENT_TTL_MS at most)
  if (inserted) {
    await ctx.outbox.add(
      subjects.screenKeyBound,
      { screenId: bound._id, ownerId: bound.ownerId, keyId: bound.keyId, boundAt: bound.boundAt.toISOString() },
      { id: nameUuid(`screens.key.bound:${bound._id}`, 'v5') },
    );
  }
  return bound;
}

/**
 * POST /api/screens/device/key: first-use binding for a display paired before it could sign (and, for any display,
 * where its chain stands at the service). The same key again is accepted; another key is refused (SCREEN_KEY_BOUND):
 * a display that lost its key is paired again, which gives it a new screen, a new credential and a new key.
 */
export async function registerDisplayKey(
  ctx: ServiceContext,
  device: DeviceIdentity,
  jwk: DisplayPublicKey,
): Promise<DisplayKeyResponse> {
  const screen = await screenOfDevice(ctx, device);
  const bound = await bindDisplayKey(ctx, screen, jwk);
  if (bound.keyId !== keyIdOf(jwk)) throw new AppError('SCREEN_KEY_BOUND');
  return { keyId: bound.keyId, head: await ctx.data.signed.head(bound.keyId) };
}

const refuse = (reason: string): never => {
  throw new AppError('PLAY_SIGNATURE_INVALID', {
    issues: [{ path: 'signed', message: reason, key: 'validation.invalid' }],
  });
};

/**
 * Before anything is judged: a screen with a key bound takes only batches signed by it (PLAY_SIGNATURE_INVALID
 * otherwise, nothing stored); a screen without one (a display paired before signing that has not bound a key yet)
 * sends unsigned batches, judged as before and in no proof. Returns the checked batch, or null for an unsigned one.
 */
export async function checkSignedBatch(
  ctx: ServiceContext,
  screen: ScreenRecord,
  input: PlayBatchRequest,
): Promise<SignedBatch | null> {
  const header = input.signed;
  // "no key" may come from memory (KEY_ABSENT_TTL_MS at most): a signed batch is not refused on it without a read
  let key = await ctx.data.signed.keyOf(screen._id);
  if (!key && header) key = await ctx.data.signed.keyOf(screen._id, true);
  if (!key) return header ? refuse('no key is bound to this screen: register it first') : null;
  if (!header) return refuse('missing: this screen signs its batches');
  if (header.key !== key.keyId) return refuse("not signed by this screen's key");
  const text = signedTextOf(header, input.plays);
  if (!verifyBatchSignature(key.alg, key.jwk, text, header.signature)) return refuse('the signature does not hold');
  return { key, header, hash: sha256(text) };
}

/**
 * Keeps the batch in its place in the key's chain (an insert under `<keyId>#<seq>`, taken once). The same batch sent
 * again (a lost answer) is judged again as a resend; another batch in a place already taken, or one naming as its
 * predecessor a batch the service holds otherwise, is refused with PLAY_CHAIN_CONFLICT and where the chain stands
 * (the display signs it again after that). A batch whose predecessor has not arrived is kept and noted ('after-gap');
 * one arriving after its successor is noted 'late': the proof shows both.
 */
export async function storeSignedBatch(
  ctx: ServiceContext,
  screen: ScreenRecord,
  signed: SignedBatch,
  plays: PlayBatchRequest['plays'],
): Promise<void> {
  const { key, header, hash } = signed;
  const conflict = async () => {
    throw new AppError('PLAY_CHAIN_CONFLICT', { details: { head: await ctx.data.signed.head(key.keyId) } });
  };
  let arrival: Arrival = 'in-order';
  const tip = ctx.data.signed.tip(key.keyId);
  if (tip && header.seq === tip.seq + 1) {
    // the display's next batch after the last place this instance stored or found: its predecessor is known (a place
    // never changes), nothing stands after it (a display sends a batch once the one before is answered), and a place
    // taken meanwhile (this batch sent again through another instance) is found by the insert below. No read: three
    // by `_id` for every batch of every display before
    if (header.prev !== tip.hash) return conflict();
  } else {
    const [before, after, same] = await Promise.all([
      header.seq > 1 ? ctx.data.signed.batch(key.keyId, header.seq - 1) : null,
      ctx.data.signed.batch(key.keyId, header.seq + 1),
      ctx.data.signed.batch(key.keyId, header.seq),
    ]);
    if (same) {
      if (same.hash !== hash) return conflict();
      ctx.data.signed.noteTip(key.keyId, header.seq, hash);
      return;
    }
    if (header.seq === 1 ? header.prev !== '' : before !== null && before.hash !== header.prev) return conflict();
    arrival = after ? 'late' : header.seq > 1 && !before ? 'after-gap' : 'in-order';
  }
  const starts = plays.map((p) => Date.parse(p.startedAt));
  const stored = await ctx.data.signed.insert({
    _id: `${key.keyId}#${header.seq}`,
    keyId: key.keyId,
    seq: header.seq,
    prev: header.prev,
    hash,
    sentAt: header.sentAt,
    signature: header.signature,
    records: plays.map((p) => ({
      id: p.id,
      fileId: p.fileId,
      page: p.page,
      startedAt: p.startedAt,
      seconds: p.seconds,
      // signed too (recordText): the proof must show it as sent
      ...(p.reachedSecond !== undefined ? { reachedSecond: p.reachedSecond } : {}),
    })),
    screenId: screen._id,
    ownerId: screen.ownerId,
    fileIds: [...new Set(plays.map((p) => p.fileId))],
    firstStart: new Date(Math.min(...starts)),
    lastStart: new Date(Math.max(...starts)),
    receivedAt: new Date(ctx.clock.ms()),
    arrival,
  });
  if (!stored) {
    // taken meanwhile (another instance): the same batch is a resend, another is a conflict
    const now = await ctx.data.signed.batch(key.keyId, header.seq);
    if (now?.hash !== hash) return conflict();
    ctx.data.signed.noteTip(key.keyId, header.seq, hash);
  }
}
