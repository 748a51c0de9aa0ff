// Bulk pairing: an operator claims the codes of many displays in one call. The same rules as one pairing
// (pair-screen.ts): each code counts as one attempt against the member's limit (the whole call is refused with
// RATE_LIMITED, and nothing is claimed, when they would go over it), wrong, expired and used codes are refused alike
// with PAIRING_CODE_INVALID, and a code claims at most one screen (the same insert-once claim, under the pairingId).
// Only the database round trips are shared: one read of the codes, one unordered insert of the claims.
import { randomUUID } from 'node:crypto';
import type { BulkPairingOutcome, BulkPairingRequest, BulkPairingResult } from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { PairingClaimRecord, PairingRecord } from '../data';
import { announcePairing, auditPairing, ensureScreenOfClaim } from './pair-screen';

export async function bulkPairScreens(
  ctx: ServiceContext,
  ownerId: string,
  input: BulkPairingRequest,
  actor: AuditActor,
): Promise<BulkPairingResult> {
  const now = ctx.clock.ms();
  const attempts = input.screens.length;
  if (!(await ctx.data.rateLimits.allow(`pair:${ownerId}`, ctx.config.PAIR_ATTEMPT_RATE_MAX, 60_000, now, attempts))) {
    throw new AppError('RATE_LIMITED');
  }
  const alive = await ctx.data.pairings.findActiveMany([...new Set(input.screens.map((s) => s.code))], new Date(now));
  // a code alive twice cannot happen (start-pairing draws again); the first found is taken, as by one pairing
  const byCode = new Map<string, PairingRecord>();
  for (const p of alive) if (!byCode.has(p.code)) byCode.set(p.code, p);
  const claims: Array<PairingClaimRecord | null> = [];
  const asked = new Set<string>();
  for (const s of input.screens) {
    const pairing = byCode.get(s.code);
    // a code named twice in one call claims one screen: the later mention is refused like a used code
    if (!pairing || asked.has(pairing._id)) {
      claims.push(null);
      continue;
    }
    asked.add(pairing._id);
    claims.push({
      _id: pairing._id,
      screenId: randomUUID(),
      deviceId: randomUUID(),
      ownerId,
      name: s.name,
      timeZone: input.timeZone,
      claimedAt: new Date(now),
    });
  }
  const landed = await ctx.data.pairings.claimMany(claims.filter((c): c is PairingClaimRecord => c !== null));
  const ours = claims.map((c) => (c && landed.has(c._id) ? c : null));
  // each screen of a landed claim (idempotent: a crash here is repaired by the display's next poll)
  await Promise.all(ours.map((c) => (c ? ensureScreenOfClaim(ctx, c) : undefined)));
  // one entry per screen paired, as one pairing makes (a refused code none)
  await Promise.all(ours.map((c) => (c ? auditPairing(ctx, actor, c) : undefined)));
  // one event for the call (every instance's device view adds them)
  await announcePairing(
    ctx,
    ours.filter((c): c is PairingClaimRecord => c !== null),
  );
  return {
    results: input.screens.map((s, i): BulkPairingOutcome => {
      const claim = ours[i];
      return claim
        ? { code: s.code, status: 'paired', screenId: claim.screenId, name: claim.name }
        : { code: s.code, status: 'refused', error: 'PAIRING_CODE_INVALID' };
    }),
  };
}
