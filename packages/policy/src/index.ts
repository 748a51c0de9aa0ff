// Who may do what in a workspace, decided in one place: every route names its action (packages/contracts' route
// table), the gateway refuses a role that lacks it before proxying, and each service asks again first thing
// (service-kit's requireActor). Pure: no I/O, so both ask the same table and a test can read it whole.
// Types only from the contracts: the shell's pages import this module, and the contracts' values bring zod, which a
// page without a form must not load (the landing page's test checks its scripts).
import type { WorkspaceRole } from '@pagecast/contracts';

/**
 * Everything a call may do, by object. A `*.read` changes nothing. `personal` acts on the caller's own account (their
 * profile, password, sessions, their own points bought by card), never on the workspace, so every role has it.
 */
export const ACTIONS = [
  'personal',
  // reads
  'files.read',
  'playlists.read',
  'screens.read',
  'plays.read',
  'marketplace.read',
  'sales.read',
  'billing.read',
  'workspace.read',
  'audit.read',
  // content
  'files.write',
  'playlists.write',
  'takeover-templates.write',
  // what screens play
  'screens.assign',
  'groups.write',
  'schedules.write',
  // emergency messages: from a saved template (`takeovers.start`), or typed on the spot (`takeovers.compose`)
  'takeovers.start',
  'takeovers.end',
  'takeovers.compose',
  // the fleet itself: pairing and unpairing displays, the disaster alert rules
  'screens.manage',
  // money: selling the workspace's files, spending the owner's points (purchases, plan changes)
  'marketplace.sell',
  'billing.spend',
  // the workspace
  'workspace.members',
  'workspace.settings',
  'approvals.decide',
] as const;
export type Action = (typeof ACTIONS)[number];

/** The contracts' WORKSPACE_ROLES, in their order (a test keeps the two equal). */
export const ROLES = [
  'owner',
  'admin',
  'editor',
  'publisher',
  'broadcaster',
  'viewer',
] as const satisfies readonly WorkspaceRole[];
const everyone = ROLES;
const managers = ['owner', 'admin'] as const;
const editors = ['owner', 'admin', 'editor'] as const;
const broadcasters = ['owner', 'admin', 'broadcaster'] as const;

/**
 * The roles that may do each action. Viewer: every read but the audit log (which only the workspace's admins read).
 * Broadcaster: the reads and starting and ending takeovers from templates. Editor: content, playlists, what screens
 * play, groups, schedules. Publisher: the reads and deciding proposals. Admin and owner: everything.
 */
const RIGHTS: Record<Action, readonly WorkspaceRole[]> = {
  personal: everyone,
  'files.read': everyone,
  'playlists.read': everyone,
  'screens.read': everyone,
  'plays.read': everyone,
  'marketplace.read': everyone,
  'sales.read': everyone,
  'billing.read': everyone,
  'workspace.read': everyone,
  'audit.read': managers,
  'files.write': editors,
  'playlists.write': editors,
  'takeover-templates.write': editors,
  'screens.assign': editors,
  'groups.write': editors,
  'schedules.write': editors,
  'takeovers.start': broadcasters,
  'takeovers.end': broadcasters,
  'takeovers.compose': managers,
  'screens.manage': managers,
  'marketplace.sell': managers,
  'billing.spend': managers,
  'workspace.members': managers,
  'workspace.settings': managers,
  'approvals.decide': ['owner', 'admin', 'publisher'],
};

const actionSet: ReadonlySet<string> = new Set(ACTIONS);

export function isAction(value: unknown): value is Action {
  return typeof value === 'string' && actionSet.has(value);
}

/** Whether a role may do an action (an unknown role or action: no). */
export function can(role: WorkspaceRole, action: Action): boolean {
  return (RIGHTS[action] as readonly string[] | undefined)?.includes(role) ?? false;
}

/** Every action a role may do, in ACTIONS' order (for documentation and the closing table). */
export function actionsOf(role: WorkspaceRole): Action[] {
  return ACTIONS.filter((a) => can(role, a));
}

export type Decision = { allowed: true } | { allowed: false; code: 'FORBIDDEN_ROLE' };

/**
 * The decision for one call: `userId` acting in `workspaceId` with `role`. A workspace's id is its owner's user id,
 * so 'owner' anywhere else is refused, whatever the action: a mistaken or forged role cannot make an owner.
 */
export function decide(input: { userId: string; workspaceId: string; role: WorkspaceRole; action: Action }): Decision {
  const { userId, workspaceId, role, action } = input;
  if (role === 'owner' && workspaceId !== userId) return { allowed: false, code: 'FORBIDDEN_ROLE' };
  return can(role, action) ? { allowed: true } : { allowed: false, code: 'FORBIDDEN_ROLE' };
}
