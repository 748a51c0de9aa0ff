import type { DeviceIdentity, DeviceScreen } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { ScreenRecord } from '../data';
import { manifestOf } from '../domain';

/**
 * The device's own screen, from the device view (no database read once loaded; a screen this instance has not heard
 * of is read by `_id` and kept); a revoked screen or a token of an earlier pairing is refused (401: pair again).
 */
export async function screenOfDevice(ctx: ServiceContext, device: DeviceIdentity): Promise<ScreenRecord> {
  const screen = await ctx.data.screens.ofDevice(device.screenId);
  if (!screen || screen.revokedAt || screen.deviceId !== device.deviceId || screen.ownerId !== device.ownerId) {
    throw new AppError('UNAUTHORIZED');
  }
  return screen;
}

export async function getDeviceScreen(ctx: ServiceContext, device: DeviceIdentity): Promise<DeviceScreen> {
  const screen = await screenOfDevice(ctx, device);
  // what it resolves with on its own clock: its groups' assignments in order, the takeovers that concern
  // it with their ends; the owner's fleet document and the screen's groups from the device view (no database read)
  const [fleet, groups] = await Promise.all([
    ctx.data.view.fleet(screen.ownerId),
    ctx.data.view.groups(screen.groupIds ?? []),
  ]);
  // how the stage turns, and the hours that apply (its own, else its first group's in the member's order)
  return manifestOf(screen, fleet, new Map(groups.map((g) => [g._id, g])), ctx.clock.ms());
}
