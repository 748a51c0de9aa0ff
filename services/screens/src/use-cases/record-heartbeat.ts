import type { DeviceIdentity, HeartbeatRequest } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { DEVICE_CHECK_MS, screenOfDevice } from './device-screen';

/** The display is on: when, what it shows, its version and size (only its own screen, by its token). */
export async function recordHeartbeat(
  ctx: ServiceContext,
  device: DeviceIdentity,
  input: HeartbeatRequest,
): Promise<void> {
  const screen = await screenOfDevice(ctx, device, { recentMs: DEVICE_CHECK_MS });
  await ctx.data.statuses.record({
    screenId: screen._id,
    ownerId: screen.ownerId,
    lastSeenAt: new Date(ctx.now()),
    nowPlaying: input.nowPlaying,
    appVersion: input.appVersion,
    screenSize: input.screenSize,
  });
}
