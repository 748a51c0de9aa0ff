import { type DeviceIdentity, type DeviceScreen, SCREEN_HEARTBEAT_SECONDS } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { ScreenRecord } from '../data';
import { inputsOf } from './fleet-common';
import { groupsOfScreen, settingsOf } from './screen-health';

/**
 * How old a screen's record may be when a display's heartbeat or play batch checks it: the check needs only that the
 * screen is this device's and not revoked. A revocation made by this instance is seen at once (the repository
 * forgets the record), and the gateway refuses a revoked device everywhere from the revocation event; so a display
 * reporting every 15 s reads its record about once a minute (each read costs FerretDB a query), its manifest
 * reading it afresh in between.
 */
export const DEVICE_CHECK_MS = 60_000;

/**
 * The device's own screen; a revoked screen or a token of an earlier pairing is refused (401: pair again).
 * `recentMs` accepts a record read that long ago (reports); what the display plays always reads it afresh.
 */
export async function screenOfDevice(
  ctx: ServiceContext,
  device: DeviceIdentity,
  opts: { recentMs?: number } = {},
): Promise<ScreenRecord> {
  const screen = opts.recentMs
    ? await ctx.data.screens.getRecent(device.screenId, opts.recentMs, ctx.now())
    : await ctx.data.screens.get(device.screenId, ctx.now());
  if (!screen || screen.revokedAt || screen.deviceId !== device.deviceId || screen.ownerId !== device.ownerId) {
    throw new AppError('UNAUTHORIZED');
  }
  return screen;
}

export async function getDeviceScreen(ctx: ServiceContext, device: DeviceIdentity): Promise<DeviceScreen> {
  const screen = await screenOfDevice(ctx, device);
  // what it resolves with on its own clock (issue 37): its groups' assignments in order, the takeovers that concern
  // it with their ends; by `_id` reads only (the owner's fleet document, the screen's groups)
  const [fleet, groups] = await Promise.all([
    ctx.data.fleet.fleets.get(screen.ownerId),
    ctx.data.fleet.groups.byIds(screen.groupIds ?? []),
  ]);
  const groupsById = new Map(groups.map((g) => [g._id, g]));
  const inputs = inputsOf(screen, fleet, groupsById, ctx.now());
  // issue 38: how the stage turns, and the hours that apply (its own, else its first group's in the member's order)
  const { rotation, openingHours } = settingsOf(screen, groupsOfScreen(screen, groupsById, fleet.order));
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    screenId: screen._id,
    name: screen.name,
    timeZone: screen.timeZone,
    assignment: screen.assignment,
    heartbeatSeconds: SCREEN_HEARTBEAT_SECONDS,
    groups: inputs.groups.map((g) => ({ id: g.id, assignment: g.assignment })),
    takeovers: inputs.takeovers.map((t) => ({
      id: t.id,
      show: t.show,
      startsAt: iso(t.startsAt),
      endsAt: t.endsAt === null ? null : iso(t.endsAt),
    })),
    rotation,
    openingHours,
  };
}
