import { requireActor } from '@pagecast/service-kit';
import type { Request } from 'express';
import type { Caller } from '../use-cases/reader';

/**
 * Who calls for the player: a paired display (as the gateway verified it), else a member (anonymous: 401), who reads
 * as the workspace they act in (its owner's id: what the workspace owns and holds licences for is theirs to read).
 */
export function callerOf(req: Request, action: 'files.read' | 'playlists.read'): Caller {
  const device = req.device;
  if (device) return { kind: 'device', screenId: device.screenId, ownerId: device.ownerId };
  return { kind: 'member', userId: requireActor(req, action).workspaceId };
}
