import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { PAIRING_CODE_TTL_SECONDS, type PairingStarted } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { codeFromBytes } from '../domain';

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/** A display asks for a code: rate-limited per address, unique among the codes alive, valid five minutes. */
export async function startPairing(ctx: ServiceContext, input: { address: string }): Promise<PairingStarted> {
  const now = ctx.clock.ms();
  if (!(await ctx.data.rateLimits.allow(`pairing:${input.address}`, ctx.config.PAIRING_RATE_MAX, 60_000, now))) {
    throw new AppError('RATE_LIMITED');
  }
  const pairingId = randomUUID();
  const pollSecret = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now + PAIRING_CODE_TTL_SECONDS * 1000);
  // A code alive twice would make a claim ambiguous: each code is reserved under its own key (an insert that lands
  // once); one already alive is drawn again (rare: 2^30 codes).
  let code: string | undefined;
  for (let i = 0; i < 6 && code === undefined; i++) {
    const drawn = codeFromBytes(randomBytes(8));
    if (await ctx.data.pairings.reserveCode(drawn, pairingId, expiresAt, new Date(now))) code = drawn;
  }
  if (code === undefined) throw new AppError('SERVICE_UNAVAILABLE');
  // no TTL indexes on FerretDB: codes expired for an hour go as new ones are made (at most once a minute)
  await ctx.data.pairings.removeExpired(new Date(now - 3_600_000), now);
  await ctx.data.pairings.create({
    _id: pairingId,
    code,
    pollSecretHash: hashSecret(pollSecret),
    expiresAt,
    createdAt: new Date(now),
  });
  return { pairingId, code, pollSecret, expiresAt: expiresAt.toISOString() };
}
