// Every API route against every role: the roles allowed per route are written out here by hand, route by route, not
// read from the policy's table, so a wrong entry in either (or a route given the wrong action) shows.
import { apiRoutes, WORKSPACE_ROLES, type WorkspaceRole } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { decide, isAction } from '../src/index';

const all: readonly WorkspaceRole[] = WORKSPACE_ROLES;
const reads = all;
const content = ['owner', 'admin', 'editor'] as const;
const emergency = ['owner', 'admin', 'broadcaster'] as const;
const managers = ['owner', 'admin'] as const;
const deciders = ['owner', 'admin', 'publisher'] as const;

/** Per route id, the roles that may call it in a workspace. */
const expected: Record<string, readonly WorkspaceRole[]> = {
  // the person's own account: any role, wherever they act
  getCurrentUser: all,
  migrateAccount: all,
  markWelcomeSeen: all,
  logout: all,
  updateProfile: all,
  changePassword: all,
  sendContactMessage: all,
  confirmPayment: all,
  createPaymentIntent: all,
  purchasePoints: all,

  listWorkspaces: all,
  acceptInvitation: all,
  // leaving a workspace is the person's own act (who may remove someone else, account decides by workspace.members)
  removeWorkspaceMember: all,

  // reads: everyone
  listWorkspaceMembers: reads,
  listProposals: reads,
  getProposal: reads,
  listFiles: reads,
  listAccessibleFiles: reads,
  getFileCopyright: reads,
  getFile: reads,
  getFilePages: reads,
  getMedia: reads,
  getFileVideo: reads,
  getDashboardStats: reads,
  listPlaylists: reads,
  listPlaylistItems: reads,
  searchMarketplace: reads,
  getFilePreview: reads,
  getFilePreviewImage: reads,
  getFileVideoPreview: reads,
  getFilePurchasers: reads,
  soldPlays: reads,
  soldPlayProof: reads,
  getPointsSummary: reads,
  getPointsHistory: reads,
  getMembership: reads,
  listScreens: reads,
  fleetHealth: reads,
  screenAgenda: reads,
  screenIncidents: reads,
  listScreenGroups: reads,
  groupAgenda: reads,
  listTakeovers: reads,
  takeoverLog: reads,
  listTakeoverTemplates: reads,
  getAlertRules: reads,
  screenPlayReport: reads,
  refusedPlays: reads,
  screenPlayProof: reads,

  // content: owner, admin, editor
  uploadFile: content,
  createResumableUpload: content,
  resumableUploadOffset: content,
  appendResumableUpload: content,
  cancelResumableUpload: content,
  updateFile: content,
  updateFileDuration: content,
  updateFileDisplayMode: content,
  deleteFile: content,
  createPlaylist: content,
  addPlaylistItem: content,
  savePlaylistItems: content,
  removePlaylistItem: content,
  deletePlaylist: content,
  createTakeoverTemplate: content,
  updateTakeoverTemplate: content,
  deleteTakeoverTemplate: content,

  // what screens play: owner, admin, editor
  updateScreen: content,
  bulkScreenChange: content,
  createScreenGroup: content,
  updateScreenGroup: content,
  deleteScreenGroup: content,
  setScreenGroupOrder: content,
  // withdrawing a proposal (the service lets an editor withdraw only their own)
  withdrawProposal: content,

  // approval: the workspace's owner, admins and publishers decide
  approveProposal: deciders,
  rejectProposal: deciders,

  // emergency messages: owner, admin, broadcaster
  startTakeover: emergency,
  endTakeover: emergency,

  // people: owner and admin
  updateWorkspaceMember: managers,
  createWorkspaceInvitation: managers,
  listWorkspaceInvitations: managers,
  revokeWorkspaceInvitation: managers,
  updateWorkspaceSettings: managers,
  // the audit log: the workspace's owner and admins only
  workspaceAudit: managers,
  workspaceAuditCsv: managers,

  // the fleet, money and selling: owner and admin
  pairScreen: managers,
  bulkPairScreens: managers,
  revokeScreen: managers,
  setAlertRules: managers,
  updatePublishSettings: managers,
  purchaseFile: managers,
  upgradeMembership: managers,
  scheduleDowngrade: managers,
  cancelDowngrade: managers,
};

const memberRoutes = apiRoutes.filter((r) => r.auth === 'session' || r.auth === 'optional');

describe('the route table and the policy', () => {
  it('gives every member route (session, optional) a known action, and public and device routes none', () => {
    for (const route of apiRoutes) {
      if (route.auth === 'session' || route.auth === 'optional') expect(isAction(route.action), route.id).toBe(true);
      else expect(route.action, route.id).toBeUndefined();
    }
  });

  it('the expected table names exactly the member routes', () => {
    expect(Object.keys(expected).sort()).toEqual(memberRoutes.map((r) => r.id).sort());
  });

  describe.each(WORKSPACE_ROLES)('%s', (role) => {
    // the owner acts in their own workspace (its id is theirs); every other role in someone else's
    const userId = role === 'owner' ? 'w1' : 'u2';
    it.each(memberRoutes.map((r) => [r.id, r] as const))('%s', (_id, route) => {
      const decision = decide({ userId, workspaceId: 'w1', role, action: route.action as never });
      expect(decision.allowed).toBe(expected[route.id]?.includes(role) ?? false);
      if (!decision.allowed) expect(decision.code).toBe('FORBIDDEN_ROLE');
    });
  });
});
