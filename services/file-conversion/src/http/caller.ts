import type { DeviceIdentity } from '@pagecast/contracts';
import { requireActor } from '@pagecast/service-kit';
import type { Request } from 'express';
import type { Caller } from '../use-cases/reader';

/** A paired display reads as its screen, within its owner's workspace (over HTTP or over its socket). */
export const deviceCaller = (
  device: Pick<DeviceIdentity, 'screenId' | 'ownerId'>,
): Extract<Caller, { kind: 'device' }> => ({
  kind: 'device',
  screenId: device.screenId,
  ownerId: device.ownerId,
});

/**
 * Who calls for the player: a paired display (as the gateway verified it), else a member (anonymous: 401), who reads
 * as the workspace they act in (its owner's id: what the workspace owns and holds licences for is theirs to read).
 */
export function callerOf(req: Request, action: 'files.read' | 'playlists.read'): Caller {
  const device = req.device;
  if (device) return deviceCaller(device);
  return { kind: 'member', userId: requireActor(req, action).workspaceId };
}
