import { WORKSPACE_ROLES } from '@pagecast/contracts';
import { ROLES } from './index';
import { describe, expect, it } from 'vitest';
import { ACTIONS, type Action, actionsOf, can, decide, isAction } from './index';

describe('can', () => {
  it('knows every role of the contracts, in their order (it keeps its own list: no zod in the pages that import it)', () => {
    expect([...ROLES]).toEqual([...WORKSPACE_ROLES]);
  });
  it('owner and admin may do everything', () => {
    for (const action of ACTIONS) {
      expect(can('owner', action), action).toBe(true);
      expect(can('admin', action), action).toBe(true);
    }
  });

  it('a viewer reads (all but the audit log) and changes nothing', () => {
    expect(actionsOf('viewer')).toEqual([
      'personal',
      'files.read',
      'playlists.read',
      'screens.read',
      'plays.read',
      'marketplace.read',
      'sales.read',
      'billing.read',
      'workspace.read',
    ]);
  });

  it('a broadcaster reads, starts and ends takeovers from templates, and may not type one or edit anything', () => {
    const extra = actionsOf('broadcaster').filter((a) => !can('viewer', a));
    expect(extra).toEqual(['takeovers.start', 'takeovers.end']);
    for (const action of ['takeovers.compose', 'takeover-templates.write', 'playlists.write'] as const)
      expect(can('broadcaster', action), action).toBe(false);
  });

  it('an editor changes content and what screens play, never money, people, settings or the fleet', () => {
    const extra = actionsOf('editor').filter((a) => !can('viewer', a));
    expect(extra).toEqual([
      'files.write',
      'playlists.write',
      'takeover-templates.write',
      'screens.assign',
      'groups.write',
      'schedules.write',
    ]);
  });

  it('a publisher reads and decides proposals, and changes nothing itself', () => {
    expect(actionsOf('publisher').filter((a) => !can('viewer', a))).toEqual(['approvals.decide']);
  });

  it('spending the owner points is for owner and admin only', () => {
    expect(WORKSPACE_ROLES.filter((r) => can(r, 'billing.spend'))).toEqual(['owner', 'admin']);
  });

  it('every role may act on its own account', () => {
    for (const role of WORKSPACE_ROLES) expect(can(role, 'personal'), role).toBe(true);
  });

  it('an unknown action is refused (a value from outside the types)', () => {
    expect(can('owner', 'files.destroy' as Action)).toBe(false);
    expect(isAction('files.destroy')).toBe(false);
    expect(isAction('files.read')).toBe(true);
  });
});

describe('decide', () => {
  it('allows what the role may do in the workspace, refuses the rest with FORBIDDEN_ROLE', () => {
    expect(decide({ userId: 'u2', workspaceId: 'w1', role: 'editor', action: 'files.write' })).toEqual({
      allowed: true,
    });
    expect(decide({ userId: 'u2', workspaceId: 'w1', role: 'viewer', action: 'files.write' })).toEqual({
      allowed: false,
      code: 'FORBIDDEN_ROLE',
    });
  });

  it('the owner of a workspace is the one whose id it is: owner anywhere else is refused', () => {
    expect(decide({ userId: 'w1', workspaceId: 'w1', role: 'owner', action: 'billing.spend' }).allowed).toBe(true);
    for (const action of ACTIONS)
      expect(decide({ userId: 'u2', workspaceId: 'w1', role: 'owner', action }), action).toEqual({
        allowed: false,
        code: 'FORBIDDEN_ROLE',
      });
  });
});
