// Proof files (signed proof of play): one file over whole UTC days, for the owner of the screens that played it, or
// for its seller across buyers' screens. Everything is as the displays signed it; the service's notes (when it
// received each batch, in what order, what it counted) are marked so. Checked offline by `npx pagecast-verify`.
import {
  PLAY_PROOF_MAX_BATCHES,
  PLAY_PROOF_MAX_DAYS,
  PROOF_FORMAT,
  PROOF_VERSION,
  type PlayProof,
  type PlayProofKey,
  type PlayProofQuery,
  type PlayProofRecord,
} from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { SignedBatchDoc } from '../data/signed-plays';
import { daysBetween, recordDigest } from '../domain';

const DAY_MS = 86_400_000;
type Owner = { ownerId: string } | { notOwnerId: string };

export const proofFileName = (q: PlayProofQuery) =>
  `proof-${q.fileId.replace(/[^A-Za-z0-9_-]/g, '_')}-${q.from}-${q.to}.json`;

/** The member's screens' proof of a file (any file they played: their own or bought). */
export async function ownerPlayProof(ctx: ServiceContext, ownerId: string, q: PlayProofQuery): Promise<PlayProof> {
  return buildProof(ctx, q, 'owner', { ownerId });
}

/**
 * The seller's proof of a file they sold, on every screen but their own (their own are in their own proof): keys
 * stand for displays, no screen and no member is named, and only the records the service counted are shown (as the
 * sold report counts them; refusals are the screen owner's business), the others of a batch as digests only.
 */
export async function soldPlayProof(ctx: ServiceContext, sellerId: string, q: PlayProofQuery): Promise<PlayProof> {
  const sold = await ctx.data.soldFiles.filesOf(sellerId);
  if (!sold.includes(q.fileId)) throw new AppError('FILE_NOT_FOUND', { details: { fileId: q.fileId } });
  return buildProof(ctx, q, 'seller', { notOwnerId: sellerId });
}

async function buildProof(
  ctx: ServiceContext,
  q: PlayProofQuery,
  kind: 'owner' | 'seller',
  owner: Owner,
): Promise<PlayProof> {
  const from = Date.parse(`${q.from}T00:00:00Z`);
  const to = Date.parse(`${q.to}T00:00:00Z`) + DAY_MS;
  if (!(from < to) || to - from > PLAY_PROOF_MAX_DAYS * DAY_MS) {
    throw new AppError('VALIDATION', {
      issues: [{ path: 'to', message: `whole days, at most ${PLAY_PROOF_MAX_DAYS}`, key: 'validation.invalid' }],
    });
  }
  const { signed } = ctx.data;
  const inPeriod = (startedAt: string) => {
    const t = Date.parse(startedAt);
    return t >= from && t < to;
  };
  // the batches holding a record of the file in the period, then per key every batch from its first to its last
  // (so a batch missing in between shows as a hole in the chain, not as nothing)
  const hits = (await signed.withFile(q.fileId, new Date(from), new Date(to), owner)).filter((b) =>
    b.records.some((r) => r.fileId === q.fileId && inPeriod(r.startedAt)),
  );
  const spans = new Map<string, { min: number; max: number; screenId: string }>();
  for (const b of hits) {
    const s = spans.get(b.keyId) ?? { min: b.seq, max: b.seq, screenId: b.screenId };
    spans.set(b.keyId, { ...s, min: Math.min(s.min, b.seq), max: Math.max(s.max, b.seq) });
  }
  if ([...spans.values()].reduce((n, s) => n + s.max - s.min + 1, 0) > PLAY_PROOF_MAX_BATCHES) {
    throw new AppError('VALIDATION', {
      issues: [{ path: 'from', message: `more than ${PLAY_PROOF_MAX_BATCHES} batches`, key: 'validation.invalid' }],
    });
  }
  const batches: SignedBatchDoc[] = [];
  for (const [keyId, s] of spans) batches.push(...(await signed.range(keyId, s.min, s.max)));

  // the records of the file in the period, each once (a record sent again in a later batch shows in its first)
  const shown: Array<{ b: SignedBatchDoc; index: number }> = [];
  const seen = new Set<string>();
  for (const b of batches) {
    b.records.forEach((r, index) => {
      if (r.fileId !== q.fileId || !inPeriod(r.startedAt) || seen.has(r.id)) return;
      seen.add(r.id);
      shown.push({ b, index });
    });
  }
  const verdicts = await signed.verdicts(shown.map((s) => (s.b.records[s.index] as { id: string }).id));
  const records: PlayProofRecord[] = [];
  for (const { b, index } of shown) {
    const record = b.records[index] as PlayProofRecord['record'];
    const verdict = verdicts.get(record.id);
    if (kind === 'seller' && !(verdict && 'counted' in verdict)) continue;
    records.push({ key: b.keyId, seq: b.seq, index, record, ...(verdict ? { verdict } : {}) });
  }

  // the keys, with their validity: bound at, and revoked when their screen was unpaired
  const screenIds = [...new Set([...spans.values()].map((s) => s.screenId))];
  const [keyDocs, screens] = await Promise.all([
    signed.keysOf(screenIds),
    Promise.all(screenIds.map((id) => ctx.data.screens.get(id))),
  ]);
  const screenOf = new Map(screens.flatMap((s) => (s ? [[s._id, s] as const] : [])));
  const keys: PlayProofKey[] = keyDocs.map((k) => {
    const screen = screenOf.get(k._id);
    return {
      id: k.keyId,
      alg: k.alg,
      jwk: k.jwk,
      validFrom: k.boundAt.toISOString(),
      revokedAt: screen?.revokedAt ? screen.revokedAt.toISOString() : null,
      ...(kind === 'owner' ? { screen: { id: k._id, name: screen?.name ?? '' } } : {}),
    };
  });

  // the service's word alone: plays it counted of the file in the period that no signed batch holds
  const signedIds = new Set(batches.flatMap((b) => b.records.map((r) => r.id)));
  const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const counted = await signed.countedOfFile(
    q.fileId,
    { from: dayOf(from - DAY_MS), to: dayOf(to) },
    new Date(from),
    new Date(to),
    owner,
  );
  const compacted = await compactedDays(ctx, q.fileId, dayOf(from - DAY_MS), dayOf(to), owner);
  return {
    format: PROOF_FORMAT,
    version: PROOF_VERSION,
    generatedAt: new Date(ctx.clock.ms()).toISOString(),
    scope: { kind, fileId: q.fileId, from: q.from, to: q.to },
    keys,
    batches: batches.map((b) => ({
      key: b.keyId,
      seq: b.seq,
      prev: b.prev,
      sentAt: b.sentAt,
      signature: b.signature,
      records: b.records.map(recordDigest),
      receivedAt: b.receivedAt.toISOString(),
      arrival: b.arrival,
    })),
    records,
    unsigned: { records: counted.filter((id) => !signedIds.has(id)).length },
    ...(compacted.length > 0 ? { compacted } : {}),
  };
}

/**
 * Days whose raw records compaction folded into rollups (their verdicts are gone): what the service counted of the
 * file then, from the scope's rollup (the owner's day, or the file's day less the seller's own screens), with the
 * seal that rollup carries.
 */
async function compactedDays(ctx: ServiceContext, fileId: string, from: string, to: string, owner: Owner) {
  const days = daysBetween(from, to);
  const docs =
    'ownerId' in owner
      ? await ctx.data.rollups.ofDays('owner', [owner.ownerId], days)
      : await ctx.data.rollups.ofDays('file', [fileId], days);
  return docs.flatMap((d) => {
    if (!d.sealed) return [];
    const rows = d.rows.filter((r) => ('ownerId' in owner ? r.b === fileId : r.a !== owner.notOwnerId));
    return [
      {
        day: d.day,
        plays: rows.reduce((n, r) => n + r.n, 0),
        seconds: Math.round(rows.reduce((n, r) => n + r.s, 0) * 1000) / 1000,
        rollup: { records: d.sealed.records, seconds: d.sealed.seconds, checksum: d.sealed.checksum },
      },
    ];
  });
}
