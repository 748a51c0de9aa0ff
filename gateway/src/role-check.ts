// The gateway's half of "one table, checked twice": a route whose action (the contracts' route table) the caller's
// role lacks in the workspace the call names is refused here, before anything is proxied; the service asks the same
// policy again (service-kit's requireActor).
import { errorMessagesJa, type RouteDef, type WorkspaceRole } from '@pagecast/contracts';
import { decide, isAction } from '@pagecast/policy';
import type express from 'express';
import type { SessionIdentity } from './session';

/**
 * The caller with the workspace the call acts in and their role there, as the workspace resolution found them
 * (memberships.ts). Absent, the caller's own workspace, as its owner.
 */
export type ActingIdentity = SessionIdentity & { workspaceId?: string; role?: WorkspaceRole };

/** Whether the caller's role lacks the route's action: then answered 403 FORBIDDEN_ROLE (and true). */
export function refuseRole(
  route: Pick<RouteDef, 'action'> | undefined,
  identity: ActingIdentity | undefined,
  res: express.Response,
): boolean {
  // no member (a display, a visitor) or a route no member acts on: the route's auth decides alone
  if (!identity || route?.action === undefined) return false;
  const decision = isAction(route.action)
    ? decide({
        userId: identity.userId,
        workspaceId: identity.workspaceId ?? identity.userId,
        role: identity.role ?? 'owner',
        action: route.action,
      })
    : ({ allowed: false, code: 'FORBIDDEN_ROLE' } as const); // an action the policy does not know: refused
  if (decision.allowed) return false;
  res
    .status(403)
    .set('Cache-Control', 'no-store')
    .json({ code: decision.code, message: errorMessagesJa[decision.code] });
  return true;
}
