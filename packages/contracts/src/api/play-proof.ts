// Proof files (signed proof of play): what an owner or a seller downloads per file and period, and checks offline
// with `npx pagecast-verify proof.json` (packages/verify). Everything a display signed is in it as signed; what the
// service adds (when it received a batch, in what order, what it counted) is marked as its note.
import { z } from 'zod';
import { defineRoutes } from '../route-def';
import { Id, IsoDateTime } from '../validation';
import { DisplayKeyResponse, DisplayPublicKey, RegisterDisplayKeyRequest, SignedBatchHeader } from './play-signature';
import { PlayRecord, PlayRefusalReason } from './screens';

/** A proof covers one file over whole UTC days, at most this many. */
export const PLAY_PROOF_MAX_DAYS = 92;
/** A proof holds at most this many batches (a longer period is asked for in parts). */
export const PLAY_PROOF_MAX_BATCHES = 20_000;

export const PlayProofQuery = z.object({ fileId: Id, from: z.iso.date(), to: z.iso.date() });
export type PlayProofQuery = z.infer<typeof PlayProofQuery>;

export const PlayProofKey = z.object({
  /** the key's RFC 7638 thumbprint */
  id: z.string(),
  alg: z.enum(['Ed25519', 'ES256']),
  jwk: DisplayPublicKey,
  /** when the service bound it to its screen's device credential */
  validFrom: IsoDateTime,
  /** when its screen was unpaired: nothing it signs after verifies */
  revokedAt: IsoDateTime.nullable(),
  /** the owner's proof only: which of their screens holds it (a seller's names no screen and no member) */
  screen: z.object({ id: z.string(), name: z.string() }).optional(),
});
export type PlayProofKey = z.infer<typeof PlayProofKey>;

export const PlayProofBatch = SignedBatchHeader.extend({
  /** the SHA-256 of each record's canonical text, in the order signed */
  records: z.array(z.string()),
  /** the service's note: when it received the batch, and whether before the one before it ('after-gap') or after
   * the one after it ('late') */
  receivedAt: IsoDateTime,
  arrival: z.enum(['in-order', 'after-gap', 'late']),
});
export type PlayProofBatch = z.infer<typeof PlayProofBatch>;

export const PlayProofRecord = z.object({
  key: z.string(),
  seq: z.number().int(),
  /** its place in its batch's `records` */
  index: z.number().int().nonnegative(),
  record: PlayRecord,
  /** the service's note: the seconds it counted, or why it refused the record; absent: not judged (yet) */
  verdict: z.union([z.object({ counted: z.number() }), z.object({ refused: PlayRefusalReason })]).optional(),
});
export type PlayProofRecord = z.infer<typeof PlayProofRecord>;

/**
 * The file: every key that signed a shown record (with its validity), every batch of each key from the first to the
 * last that holds a record of the file in the period (others' records show only as digests), and those records.
 */
export const PlayProof = z.object({
  format: z.literal('pagecast-proof'),
  version: z.literal(1),
  generatedAt: IsoDateTime,
  scope: z.object({ kind: z.enum(['owner', 'seller']), fileId: z.string(), from: z.string(), to: z.string() }),
  keys: z.array(PlayProofKey),
  batches: z.array(PlayProofBatch),
  records: z.array(PlayProofRecord),
  /** the service's note: records of the file in the period from screens that sent unsigned batches (none of them
   * is in this file: they are the service's word alone) */
  unsigned: z.object({ records: z.number().int().nonnegative() }),
  /**
   * the service's note: days of the period (the screens' local days, one either side of the UTC period) whose raw
   * records were compacted into rollups after their retention. Their records still show in the signed batches, but
   * without a verdict; what the service counted of the file then is `plays`/`seconds`, and `rollup` is the seal the
   * compaction wrote on the day's rollup of the scope (the owner's day, or the file's day): how many records it
   * folded, their seconds, and a SHA-256 over their sorted ids
   */
  compacted: z
    .array(
      z.object({
        day: z.string(),
        plays: z.number().int().nonnegative(),
        seconds: z.number().nonnegative(),
        rollup: z.object({
          records: z.number().int().nonnegative(),
          seconds: z.number().nonnegative(),
          checksum: z.string(),
        }),
      }),
    )
    .optional(),
});
export type PlayProof = z.infer<typeof PlayProof>;

export const playProofRoutes = defineRoutes([
  {
    id: 'screenPlayProof',
    method: 'get',
    path: '/api/screens/plays/proof',
    service: 'screens',
    auth: 'session',
    action: 'plays.read',
    summary:
      "Proof of play of one file over whole UTC days (at most 92) on the member's screens: the displays' signed " +
      'batches, their keys, the records; check it offline with `npx pagecast-verify proof.json`. VALIDATION for a ' +
      'longer period or more than 20,000 batches.',
    query: PlayProofQuery,
    response: PlayProof,
  },
  {
    id: 'soldPlayProof',
    method: 'get',
    path: '/api/screens/plays/sold/proof',
    service: 'screens',
    auth: 'session',
    action: 'sales.read',
    summary:
      "Proof of play of a file the member sold, on buyers' screens, over whole UTC days: as the owner's, but naming " +
      'no screen and no member (displays by their public key only). FILE_NOT_FOUND when the member sold no such file.',
    query: PlayProofQuery,
    response: PlayProof,
  },
  {
    id: 'deviceKey',
    method: 'post',
    path: '/api/screens/device/key',
    service: 'screens',
    auth: 'device',
    summary:
      'A display paired before signed proof of play binds its public key on first use (the same key again is ' +
      'accepted and answers where its chain stands); SCREEN_KEY_BOUND (409) when another key is bound: pair again.',
    body: RegisterDisplayKeyRequest,
    response: DisplayKeyResponse,
  },
]);
