import { type DeviceIdentity, type DeviceScreen, SCREEN_HEARTBEAT_SECONDS } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { ScreenRecord } from '../data';

/** The device's own screen; a revoked screen or a token of an earlier pairing is refused (401: pair again). */
export async function screenOfDevice(ctx: ServiceContext, device: DeviceIdentity): Promise<ScreenRecord> {
  const screen = await ctx.data.screens.get(device.screenId);
  if (!screen || screen.revokedAt || screen.deviceId !== device.deviceId || screen.ownerId !== device.ownerId) {
    throw new AppError('UNAUTHORIZED');
  }
  return screen;
}

export async function getDeviceScreen(ctx: ServiceContext, device: DeviceIdentity): Promise<DeviceScreen> {
  const screen = await screenOfDevice(ctx, device);
  return {
    screenId: screen._id,
    name: screen.name,
    timeZone: screen.timeZone,
    assignment: screen.assignment,
    heartbeatSeconds: SCREEN_HEARTBEAT_SECONDS,
  };
}
