import { randomUUID } from 'node:crypto';
import { type PairScreenRequest, SCREEN_DEFAULT_TIME_ZONE, type Screen } from '@pagecast/contracts';
import { AppError, type AuditActor, isDuplicateKeyError, nameUuid } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { auditScreensChange, screenAuditSnapshot } from '../events/audit';
import type { PairingClaimRecord } from '../data';
import { presentScreen } from './present-screen';

/** The screen a claim stands for; idempotent, so a crash between claim and screen is repaired by the next poll. */
export async function ensureScreenOfClaim(ctx: ServiceContext, claim: PairingClaimRecord): Promise<void> {
  // its history starts with nothing to play (entry 0), written before the screen that names it
  await ctx.data.history.insert(claim.screenId, 0, claim.claimedAt, { kind: 'none' });
  try {
    await ctx.data.screens.create({
      _id: claim.screenId,
      ownerId: claim.ownerId,
      deviceId: claim.deviceId,
      pairingId: claim._id,
      name: claim.name,
      timeZone: claim.timeZone,
      assignment: { kind: 'none' },
      assignmentSeq: 0,
      pairedAt: claim.claimedAt,
      revokedAt: null,
    });
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
  }
}

/**
 * A screen just paired as the audit log keeps it, from its claim (what ensureScreenOfClaim writes: nothing to play,
 * no groups), keyed by the claim (one per code): the entry of a claim is the same however often it is recorded.
 */
export function auditPairing(ctx: ServiceContext, actor: AuditActor, claim: PairingClaimRecord) {
  return auditScreensChange(ctx, actor, {
    workspaceId: claim.ownerId,
    action: 'screen.paired',
    object: { type: 'screen', id: claim.screenId },
    before: null,
    after: screenAuditSnapshot({
      _id: claim.screenId,
      ownerId: claim.ownerId,
      deviceId: claim.deviceId,
      pairingId: claim._id,
      name: claim.name,
      timeZone: claim.timeZone,
      assignment: { kind: 'none' },
      assignmentSeq: 0,
      pairedAt: claim.claimedAt,
      revokedAt: null,
    }),
    key: claim._id,
  });
}

/**
 * Announces screens just paired: every instance's device view adds them, so the fleet view of another
 * instance shows them at once. One claim's id names the event's (a UUID, as every envelope's): announced again (a
 * repaired claim), sent once.
 */
export async function announcePairing(ctx: ServiceContext, claims: PairingClaimRecord[]): Promise<void> {
  const first = claims[0];
  if (!first) return;
  await ctx.outbox.add(
    'screens.screen.paired.v1',
    { ownerId: first.ownerId, screenIds: claims.map((c) => c.screenId), pairedAt: first.claimedAt.toISOString() },
    claims.length === 1 ? { id: nameUuid(`screens.screen.paired:${first._id}`, 'v5') } : {},
  );
}

/**
 * The member types the code shown on the display. Wrong, expired and already used codes all answer
 * PAIRING_CODE_INVALID (no hint which); attempts are rate-limited per member, right or wrong.
 */
export async function pairScreen(
  ctx: ServiceContext,
  ownerId: string,
  input: PairScreenRequest,
  actor: AuditActor,
): Promise<Screen> {
  const now = ctx.clock.ms();
  if (!(await ctx.data.rateLimits.allow(`pair:${ownerId}`, ctx.config.PAIR_ATTEMPT_RATE_MAX, 60_000, now))) {
    throw new AppError('RATE_LIMITED');
  }
  const [pairing] = await ctx.data.pairings.findActive(input.code, new Date(now));
  if (!pairing) throw new AppError('PAIRING_CODE_INVALID');
  const claim: PairingClaimRecord = {
    _id: pairing._id,
    screenId: randomUUID(),
    deviceId: randomUUID(),
    ownerId,
    name: input.name,
    timeZone: input.timeZone ?? SCREEN_DEFAULT_TIME_ZONE,
    claimedAt: new Date(now),
  };
  // The one atomic step: of two members typing the same code at once, one insert lands.
  if (!(await ctx.data.pairings.claim(claim))) throw new AppError('PAIRING_CODE_INVALID');
  await ensureScreenOfClaim(ctx, claim);
  await announcePairing(ctx, [claim]);
  const screen = await ctx.data.screens.get(claim.screenId);
  if (!screen) throw new AppError('INTERNAL');
  // keyed by the claim (one per code): the screen exists from here whatever happens next
  await auditPairing(ctx, actor, claim);
  return presentScreen(screen, null, now);
}
