// Event subjects, apart from the event schemas in events.ts (which need zod): the player names a subject to follow
// a file's live updates, and a signage screen must not download zod for that.

/** Event subjects: `<service>.<entity>.<event>.v1`. */
export const subjects = {
  userRegistered: 'account.user.registered.v1',
  userVerified: 'account.user.verified.v1',
  userUpdated: 'account.user.updated.v1',
  userMigrated: 'account.user.migrated.v1',
  sessionRevoked: 'account.session.revoked.v1',
  memberAdded: 'account.member.added.v1',
  memberChanged: 'account.member.changed.v1',
  memberRemoved: 'account.member.removed.v1',
  fileUploaded: 'files.file.uploaded.v1',
  fileUpdated: 'files.file.updated.v1',
  filePublished: 'files.file.published.v1',
  fileUnpublished: 'files.file.unpublished.v1',
  fileDeleted: 'files.file.deleted.v1',
  pageReady: 'files.page.ready.v1',
  playlistSaved: 'files.playlist.saved.v1',
  playlistDeleted: 'files.playlist.deleted.v1',
  conversionRequested: 'files.conversion.requested.v1',
  purchaseCompleted: 'marketplace.purchase.completed.v1',
  licenceExpired: 'marketplace.licence.expired.v1',
  pointsChanged: 'billing.points.changed.v1',
  membershipChanged: 'billing.membership.changed.v1',
  screenChanged: 'screens.screen.changed.v1',
  screenRevoked: 'screens.screen.revoked.v1',
  screenPaired: 'screens.screen.paired.v1',
  screenKeyBound: 'screens.key.bound.v1',
  fleetChanged: 'screens.fleet.changed.v1',
  screenAlert: 'screens.alert.raised.v1',
  alertTakeover: 'screens.takeover.alerted.v1',
  proposalCreated: 'screens.proposal.created.v1',
  proposalDecided: 'screens.proposal.decided.v1',
  workspaceUpdated: 'account.workspace.updated.v1',
  // Audit entries, one subject per publishing service (`audit.<service>.…`) on the AUDIT stream; account chains them.
  auditFiles: 'audit.files.entry.v1',
  auditScreens: 'audit.screens.entry.v1',
  auditAccount: 'audit.account.entry.v1',
  auditBilling: 'audit.billing.entry.v1',
  auditMarketplace: 'audit.marketplace.entry.v1',
} as const;
export type Subject = (typeof subjects)[keyof typeof subjects];
export const allSubjects = Object.values(subjects) as Subject[];
