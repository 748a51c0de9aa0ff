import type { DeviceIdentity, HeartbeatRequest } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { DEVICE_CHECK_MS, screenOfDevice } from './device-screen';
import { noteContact } from './display-contact';

/**
 * The display is on: when, what it shows, its version and size (only its own screen, by its token); the first
 * heartbeat after a long silence records the offline gap.
 */
export async function recordHeartbeat(
  ctx: ServiceContext,
  device: DeviceIdentity,
  input: HeartbeatRequest,
): Promise<void> {
  const screen = await screenOfDevice(ctx, device, { recentMs: DEVICE_CHECK_MS });
  const now = ctx.now();
  // before the new status replaces the old one (its lastSeenAt is the previous contact)
  await noteContact(ctx, screen, now);
  await ctx.data.statuses.record({
    screenId: screen._id,
    ownerId: screen.ownerId,
    lastSeenAt: new Date(now),
    nowPlaying: input.nowPlaying,
    appVersion: input.appVersion,
    screenSize: input.screenSize,
  });
}
