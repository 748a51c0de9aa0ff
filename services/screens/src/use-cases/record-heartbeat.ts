import type { DeviceIdentity, HeartbeatRequest } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { DEVICE_CHECK_MS, screenOfDevice } from './device-screen';

/**
 * The display is on: when, what it shows, its version and size (only its own screen, by its token). Answered once
 * the state is in memory: it is soft state, written behind (data/statuses.ts).
 */
export async function recordHeartbeat(
  ctx: ServiceContext,
  device: DeviceIdentity,
  input: HeartbeatRequest,
): Promise<void> {
  const screen = await screenOfDevice(ctx, device, { recentMs: DEVICE_CHECK_MS });
  ctx.data.statuses.record({
    _id: screen._id,
    ownerId: screen.ownerId,
    lastSeenAt: new Date(ctx.now()),
    nowPlaying: input.nowPlaying,
    appVersion: input.appVersion,
    screenSize: input.screenSize,
  });
}
