import type { DeviceIdentity, HeartbeatRequest } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { screenOfDevice } from './device-screen';

/** The display is on: when, what it shows, its version and size (only its own screen, by its token). */
export async function recordHeartbeat(
  ctx: ServiceContext,
  device: DeviceIdentity,
  input: HeartbeatRequest,
): Promise<void> {
  const screen = await screenOfDevice(ctx, device);
  await ctx.data.screens.set(screen._id, {
    lastSeenAt: new Date(ctx.now()),
    nowPlaying: input.nowPlaying,
    appVersion: input.appVersion,
    screenSize: input.screenSize,
  });
}
