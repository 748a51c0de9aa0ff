import { type DisplayPublicKey, PAIRING_CODE_TTL_SECONDS, type PairingStatus } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { announcePairing, ensureScreenOfClaim } from './pair-screen';
import { bindDisplayKey } from './signed-batch';
import { hashSecret } from './start-pairing';

/**
 * The display asks, about once a second, whether its code was claimed. Only the holder of the poll secret (the
 * display that asked for the code) gets the device token, and only shortly after the claim.
 */
export async function pollPairing(
  ctx: ServiceContext,
  input: { pairingId: string; pollSecret: string; publicKey?: DisplayPublicKey | undefined },
): Promise<PairingStatus & { token?: string }> {
  const now = ctx.clock.ms();
  const pairing = await ctx.data.pairings.get(input.pairingId);
  if (!pairing || pairing.pollSecretHash !== hashSecret(input.pollSecret)) throw new AppError('NOT_FOUND');
  const claim = await ctx.data.pairings.claimOf(pairing._id);
  if (!claim) return { status: pairing.expiresAt.getTime() > now ? 'waiting' : 'expired' };
  if (now > claim.claimedAt.getTime() + PAIRING_CODE_TTL_SECONDS * 1000) return { status: 'expired' };
  // the screen is normally there (made with the claim): only a crash in between leaves it to be made here (two
  // inserts that fail as duplicates otherwise, which cost FerretDB more than this read by `_id`)
  let screen = await ctx.data.screens.get(claim.screenId);
  if (!screen) {
    await ensureScreenOfClaim(ctx, claim);
    await announcePairing(ctx, [claim]);
    screen = await ctx.data.screens.get(claim.screenId);
  }
  if (!screen || screen.revokedAt) return { status: 'expired' };
  // signed proof of play: the key made for this pairing is bound with the credential it is handed (the first wins;
  // the display confirms it with POST /api/screens/device/key)
  if (input.publicKey) await bindDisplayKey(ctx, screen, input.publicKey);
  const token = await ctx.data.deviceTokens.sign(
    { deviceId: screen.deviceId, screenId: screen._id, ownerId: screen.ownerId },
    now,
  );
  return { status: 'paired', screenId: screen._id, token };
}
