import type { AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { auditScreensChange, screenAuditSnapshot } from '../events/audit';
import { serialByOwner } from './fleet-lease';
import { ownedScreen } from './owned-screen';

/**
 * Unpairs a screen: stored as revoked first (its device calls here stop at once), then announced, so the gateway
 * refuses the device token everywhere and closes the display's live stream. Under the owner's fleet lease, as every
 * other write of a screen's record (update-screen.ts says why).
 */
export async function revokeScreen(
  ctx: ServiceContext,
  ownerId: string,
  screenId: string,
  actor: AuditActor,
): Promise<void> {
  const { screen, revokedAt } = await serialByOwner(ctx, ownerId, async () => {
    const screen = await ownedScreen(ctx, ownerId, screenId);
    const revokedAt = new Date(ctx.clock.ms());
    await ctx.data.screens.set(screenId, { revokedAt });
    return { screen, revokedAt };
  });
  await auditScreensChange(ctx, actor, {
    workspaceId: ownerId,
    action: 'screen.revoked',
    object: { type: 'screen', id: screenId },
    before: screenAuditSnapshot(screen),
    after: null,
  });
  await ctx.outbox.add('screens.screen.revoked.v1', {
    screenId,
    deviceId: screen.deviceId,
    ownerId,
    revokedAt: revokedAt.toISOString(),
  });
}
