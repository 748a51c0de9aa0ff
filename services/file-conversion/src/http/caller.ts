import { requireIdentity } from '@pagecast/service-kit';
import type { Request } from 'express';
import type { Caller } from '../use-cases/reader';

/** Who calls for the player: a paired display (as the gateway verified it), else a member (anonymous: 401). */
export function callerOf(req: Request): Caller {
  const device = req.device;
  if (device) return { kind: 'device', screenId: device.screenId, ownerId: device.ownerId };
  return { kind: 'member', userId: requireIdentity(req).userId };
}
