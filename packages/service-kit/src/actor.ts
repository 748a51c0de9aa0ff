import { findRoute, type WorkspaceRole } from '@pagecast/contracts';
import { type Action, decide } from '@pagecast/policy';
import type { Request } from 'express';
import { AppError } from './errors';
import { requireIdentity } from './identity';

/**
 * Who acts, and where: the person (`userId`, `sessionId`) and the workspace the call acts in (`workspaceId`, its
 * owner's user id) with their role there. Objects of the workspace are the workspace's (`workspaceId`); what is the
 * person's own (profile, password, sessions, points bought by card) is `userId`'s.
 */
export interface Actor {
  userId: string;
  sessionId: string;
  workspaceId: string;
  role: WorkspaceRole;
}

/** Refuses (403 FORBIDDEN_ROLE) unless the actor's role allows `action` in their workspace (packages/policy). */
export function authorize(actor: Actor, action: Action): void {
  const decision = decide({ ...actor, action });
  if (!decision.allowed) throw new AppError(decision.code, { details: { action, role: actor.role } });
}

/**
 * The member acting, allowed to do `action`: what every member route calls first. Anonymous: 401 UNAUTHORIZED; a
 * paired display: 403 DEVICE_NOT_ALLOWED (as requireIdentity); a role without the right: 403 FORBIDDEN_ROLE. An
 * identity that names no workspace acts in the caller's own, as its owner.
 *
 * The route table names each route's action too, and the gateway checks it before proxying: a handler asking for
 * another action than its route's is a programming error (an Error, so a 500), which any call to the route shows.
 */
export function requireActor(req: Request, action: Action): Actor {
  const route = findRoute(req.method, `${req.baseUrl}${req.path}`);
  if (route?.action !== undefined && route.action !== action) {
    throw new Error(
      `route ${route.id} does '${route.action}' in the route table, but its handler asks for '${action}'`,
    );
  }
  const identity = requireIdentity(req);
  const actor: Actor = {
    userId: identity.userId,
    sessionId: identity.sessionId,
    workspaceId: identity.workspaceId ?? identity.userId,
    role: identity.role ?? 'owner',
  };
  authorize(actor, action);
  return actor;
}
