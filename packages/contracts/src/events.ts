import { z } from 'zod';
import { fileKinds, pointTransactionTypes } from './constants';
import { DisplayMode, FileStatus, IsoDateTime, MembershipTier } from './validation';
import { IncidentState } from './api/screen-health';
import { WorkspaceRole } from './identity';
import { AuditEntry } from './api/audit';

// The subjects are in subjects.ts, free of zod: a page that only names a subject must not download zod with it.
import { allSubjects, type Subject, subjects } from './subjects';

export { allSubjects, type Subject, subjects };

const tags = z.array(z.string());

export const UserRegisteredEvent = z.object({
  userId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  membershipTier: MembershipTier,
  points: z.number().int(),
  registeredAt: IsoDateTime,
  locale: z.string(),
});
export const UserVerifiedEvent = z.object({ userId: z.string(), email: z.string(), verifiedAt: IsoDateTime });
export const UserUpdatedEvent = z.object({
  userId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  profileImageUrl: z.string().nullable(),
  updatedAt: IsoDateTime,
});
export const UserMigratedEvent = z.object({
  userId: z.string(),
  bonusPoints: z.literal(100),
  migratedAt: IsoDateTime.optional(),
});
export const SessionRevokedEvent = z.object({ sessionId: z.string(), userId: z.string(), revokedAt: IsoDateTime });
/** A person joined a workspace (accepted an invitation): `addedBy` is who invited them. */
export const WorkspaceMemberAddedEvent = z.object({
  workspaceId: z.string(),
  userId: z.string(),
  role: WorkspaceRole,
  addedBy: z.string(),
  invitationId: z.string().optional(),
  addedAt: IsoDateTime,
});
export const WorkspaceMemberChangedEvent = z.object({
  workspaceId: z.string(),
  userId: z.string(),
  role: WorkspaceRole,
  previousRole: WorkspaceRole,
  changedBy: z.string(),
  changedAt: IsoDateTime,
});
/** A member was removed, or left (`removedBy` is then the member themself). */
export const WorkspaceMemberRemovedEvent = z.object({
  workspaceId: z.string(),
  userId: z.string(),
  role: WorkspaceRole,
  removedBy: z.string(),
  removedAt: IsoDateTime,
});

export const FileUploadedEvent = z.object({
  fileId: z.string(),
  ownerId: z.string(),
  title: z.string(),
  kind: z.enum(fileKinds),
  sizeBytes: z.number().int().nonnegative(),
  uploadedAt: IsoDateTime,
});
/** Snapshot of a file after any change (edit, conversion progress or end, publish state). */
export const FileUpdatedEvent = z.object({
  fileId: z.string(),
  ownerId: z.string(),
  title: z.string(),
  status: FileStatus,
  pageCount: z.number().int().nonnegative(),
  displayDuration: z.number().int(),
  displayMode: DisplayMode,
  tags,
  isPublished: z.boolean(),
  publishPrice: z.number().int().nullable(),
  updatedAt: IsoDateTime,
  /** a converted video's length (what the screens service judges a play record's reached second by); absent otherwise */
  videoDurationMs: z.number().int().nonnegative().optional(),
  /** the file's kind; absent from events made before it was carried (a reader keeps what it knew, else a document) */
  kind: z.enum(fileKinds).optional(),
});
/** The rights a seller states for a listing, shown to buyers (card, preview, purchase, bought files). */
export const ListingCopyright = z.object({
  authorName: z.string(),
  companyName: z.string().nullable(),
  copyrightText: z.string().nullable(),
});
export type ListingCopyright = z.infer<typeof ListingCopyright>;
/** Listing data for the marketplace; also sent again when a published file changes. */
export const FilePublishedEvent = z.object({
  fileId: z.string(),
  ownerId: z.string(),
  title: z.string(),
  publishPrice: z.number().int(),
  pageCount: z.number().int().nonnegative(),
  displayDuration: z.number().int(),
  tags,
  updatedAt: IsoDateTime,
  /** what the seller stated when publishing; absent from events made before it was carried (the listing keeps its own) */
  copyright: ListingCopyright.optional(),
  /**
   * the file's kind; absent from events made before it was carried: the listing keeps the kind it was told, and one
   * never told is a document (every file on sale then was one)
   */
  kind: z.enum(fileKinds).optional(),
  /** a video's length, as in files.file.updated.v1; absent for other kinds and from older events */
  videoDurationMs: z.number().int().nonnegative().optional(),
});
export const FileUnpublishedEvent = z.object({ fileId: z.string(), ownerId: z.string(), updatedAt: IsoDateTime });
export const FileDeletedEvent = z.object({ fileId: z.string(), ownerId: z.string(), deletedAt: IsoDateTime });
export const PageReadyEvent = z.object({
  fileId: z.string(),
  ownerId: z.string(),
  pageNumber: z.number().int().positive(),
  imageKey: z.string(),
  /** pages stored so far and the total, for progress */
  pagesDone: z.number().int().nonnegative(),
  pageCount: z.number().int().nonnegative(),
});
export const PlaylistSavedEvent = z.object({
  playlistId: z.string(),
  ownerId: z.string(),
  name: z.string(),
  fileIds: z.array(z.string()),
  updatedAt: IsoDateTime,
});
export const PlaylistDeletedEvent = z.object({ playlistId: z.string(), ownerId: z.string(), deletedAt: IsoDateTime });
/** Work-queue job (stream CONVERSION). */
export const ConversionRequestedEvent = z.object({
  fileId: z.string(),
  ownerId: z.string(),
  objectKey: z.string(),
  kind: z.enum(fileKinds),
  attempt: z.number().int().positive(),
});
export const PurchaseCompletedEvent = z.object({
  purchaseId: z.string(),
  buyerId: z.string(),
  fileId: z.string(),
  sellerId: z.string(),
  price: z.number().int(),
  /** what the seller earned (price less the platform's fee, spec point 9), for the seller's per-file sales */
  sellerNet: z.number().int().nonnegative().optional(),
  expiresAt: IsoDateTime,
  purchasedAt: IsoDateTime.optional(),
});
export const LicenceExpiredEvent = z.object({
  purchaseId: z.string(),
  buyerId: z.string(),
  fileId: z.string(),
  expiredAt: IsoDateTime,
});
export const PointsChangedEvent = z.object({
  userId: z.string(),
  balance: z.number().int().nonnegative(),
  entryId: z.string(),
  /** the ledger entry that changed the balance (signed), for monthly sums kept by other services */
  amount: z.number().int().optional(),
  type: z.enum(pointTransactionTypes).optional(),
  occurredAt: IsoDateTime.optional(),
  /** true: a sale's proceeds (the seller's leg of a marketplace transfer), for "earnings from sales" */
  sale: z.boolean().optional(),
});
export const MembershipChangedEvent = z.object({
  userId: z.string(),
  tier: MembershipTier,
  pendingDowngradeTier: MembershipTier.nullable(),
  /** YYYYMM of the month the pending downgrade takes effect */
  downgradeEffectiveMonth: z.number().int().nullable(),
});

/**
 * A screen's name, time zone or assignment changed: its display re-reads what it plays (live), and file-conversion
 * keeps what the screen's device may read (these playlists and files, and the files of these playlists).
 */
export const ScreenChangedEvent = z.object({
  screenId: z.string(),
  ownerId: z.string(),
  changedAt: IsoDateTime,
  playlistIds: z.array(z.string()).default([]),
  fileIds: z.array(z.string()).default([]),
});
/**
 * Screens were paired (one pairing, or the landed codes of a bulk pairing): every screens instance adds them to its
 * in-memory view (the fleet view of an instance other than the one that paired them shows them at once).
 */
export const ScreenPairedEvent = z.object({
  ownerId: z.string(),
  screenIds: z.array(z.string()),
  pairedAt: IsoDateTime,
});
/**
 * A display's signing key was bound to its screen (once per screen: the first binding wins). Every screens instance
 * holds "no key bound" per screen in memory, so an unsigned play batch reads nothing; this event ends that at once.
 */
export const ScreenKeyBoundEvent = z.object({
  screenId: z.string(),
  ownerId: z.string(),
  keyId: z.string(),
  boundAt: IsoDateTime,
});
/** A screen was unpaired: the gateway refuses its device token from now on. */
export const ScreenRevokedEvent = z.object({
  screenId: z.string(),
  deviceId: z.string(),
  ownerId: z.string(),
  revokedAt: IsoDateTime,
});

/**
 * One change to many screens: a bulk change, a group's members, assignment or order, a takeover started
 * or ended. One event per change, not one per screen: `screenIds` are the screens whose resolution inputs changed
 * (each display re-reads its manifest, GET /api/screens/device/me, which is derived from the stored state), and
 * `content` is what those screens' devices may now be asked to play (added to what they may read). An unpair also
 * sends screens.screen.revoked.v1 per screen: revocation is the credential's own fact, which the gateway's
 * revocation set and file-conversion's tombstones are built from.
 */
export const FleetChangedEvent = z.object({
  changeId: z.string(),
  ownerId: z.string(),
  changedAt: IsoDateTime,
  kind: z.enum([
    'assign',
    'add-to-group',
    'remove-from-group',
    'set-time-zone',
    'unpair',
    'group-created',
    'group-changed',
    'group-deleted',
    'group-order',
    'takeover-started',
    'takeover-ended',
  ]),
  screenIds: z.array(z.string()),
  groupId: z.string().optional(),
  takeoverId: z.string().optional(),
  content: z.object({ playlistIds: z.array(z.string()), fileIds: z.array(z.string()) }).default({
    playlistIds: [],
    fileIds: [],
  }),
});

/**
 * Tell a member about their screens: incidents that passed their threshold and incidents that ended, in
 * one e-mail per owner and grouping window. Codes and names only: the account service words it in the member's
 * language. `alertId` is the same however often the event is sent (the account service sends one e-mail per id).
 */
const AlertScreen = z.object({
  screenId: z.string(),
  screenName: z.string(),
  /** the screen's zone: the e-mail gives times as the screen's wall clock shows them */
  timeZone: z.string(),
  state: IncidentState,
  /** down: when the bad state began; recovered: when it ended */
  at: IsoDateTime,
});
export const ScreenAlertEvent = z.object({
  alertId: z.string(),
  ownerId: z.string(),
  raisedAt: IsoDateTime,
  /** at most ALERT_MAIL_SCREENS_MAX listed of each; the totals count them all */
  down: z.array(AlertScreen),
  recovered: z.array(AlertScreen),
  downTotal: z.number().int().nonnegative(),
  recoveredTotal: z.number().int().nonnegative(),
});

/**
 * Tell a member that a disaster report took over (or stopped taking over) their screens: codes, names and the
 * report's facts; the account service words the e-mail in the member's language. One per report and member
 * (`noticeId`; the account service sends one e-mail per id).
 */
export const AlertTakeoverEvent = z.object({
  noticeId: z.string(),
  ownerId: z.string(),
  /** `corrected`: a 訂正 (or a later serial) replaced what an earlier report of the event had started */
  action: z.enum(['started', 'corrected', 'ended']),
  reportId: z.string(),
  alertKind: z.enum(['earthquake', 'tsunami', 'weather']),
  drill: z.boolean(),
  headline: z.string(),
  reportedAt: z.string(),
  /** ja names of the places concerned */
  areas: z.array(z.string()),
  intensity: z.string().optional(),
  tsunamiGrade: z.enum(['major-warning', 'warning']).optional(),
  warnings: z.array(z.string()).optional(),
  /** at most ALERT_MAIL_SCREENS_MAX listed; the total counts them all */
  screens: z.array(z.object({ screenId: z.string(), screenName: z.string() })),
  screensTotal: z.number().int().nonnegative(),
});

/**
 * An editor proposed a change of what screens play (approval is on in the workspace): the account service mails
 * the workspace's owner, admins and publishers, each in their language. Ids only: names are read when worded.
 */
export const ProposalCreatedEvent = z.object({
  proposalId: z.string(),
  workspaceId: z.string(),
  proposedBy: z.string(),
  kind: z.enum(['update-screen', 'create-group', 'update-group', 'delete-group', 'group-order', 'bulk']),
  screensTotal: z.number().int().nonnegative(),
  createdAt: IsoDateTime,
});
/** A proposal was approved (and its change made) or rejected with a reason: the account service mails its editor. */
export const ProposalDecidedEvent = z.object({
  proposalId: z.string(),
  workspaceId: z.string(),
  proposedBy: z.string(),
  decidedBy: z.string(),
  outcome: z.enum(['approved', 'rejected']),
  reason: z.string().nullable(),
  kind: z.enum(['update-screen', 'create-group', 'update-group', 'delete-group', 'group-order', 'bulk']),
  screensTotal: z.number().int().nonnegative(),
  decidedAt: IsoDateTime,
});
/** A workspace's settings changed (its owner or an admin): the values after the change. */
export const WorkspaceUpdatedEvent = z.object({
  workspaceId: z.string(),
  approvalRequired: z.boolean(),
  updatedBy: z.string(),
  updatedAt: IsoDateTime,
});

export const eventDataSchemas = {
  [subjects.userRegistered]: UserRegisteredEvent,
  [subjects.userVerified]: UserVerifiedEvent,
  [subjects.userUpdated]: UserUpdatedEvent,
  [subjects.userMigrated]: UserMigratedEvent,
  [subjects.sessionRevoked]: SessionRevokedEvent,
  [subjects.memberAdded]: WorkspaceMemberAddedEvent,
  [subjects.memberChanged]: WorkspaceMemberChangedEvent,
  [subjects.memberRemoved]: WorkspaceMemberRemovedEvent,
  [subjects.workspaceUpdated]: WorkspaceUpdatedEvent,
  [subjects.proposalCreated]: ProposalCreatedEvent,
  [subjects.proposalDecided]: ProposalDecidedEvent,
  [subjects.fileUploaded]: FileUploadedEvent,
  [subjects.fileUpdated]: FileUpdatedEvent,
  [subjects.filePublished]: FilePublishedEvent,
  [subjects.fileUnpublished]: FileUnpublishedEvent,
  [subjects.fileDeleted]: FileDeletedEvent,
  [subjects.pageReady]: PageReadyEvent,
  [subjects.playlistSaved]: PlaylistSavedEvent,
  [subjects.playlistDeleted]: PlaylistDeletedEvent,
  [subjects.conversionRequested]: ConversionRequestedEvent,
  [subjects.purchaseCompleted]: PurchaseCompletedEvent,
  [subjects.licenceExpired]: LicenceExpiredEvent,
  [subjects.pointsChanged]: PointsChangedEvent,
  [subjects.membershipChanged]: MembershipChangedEvent,
  [subjects.screenChanged]: ScreenChangedEvent,
  [subjects.screenRevoked]: ScreenRevokedEvent,
  [subjects.screenPaired]: ScreenPairedEvent,
  [subjects.screenKeyBound]: ScreenKeyBoundEvent,
  [subjects.fleetChanged]: FleetChangedEvent,
  [subjects.screenAlert]: ScreenAlertEvent,
  [subjects.alertTakeover]: AlertTakeoverEvent,
  [subjects.auditFiles]: AuditEntry,
  [subjects.auditScreens]: AuditEntry,
  [subjects.auditAccount]: AuditEntry,
  [subjects.auditBilling]: AuditEntry,
  [subjects.auditMarketplace]: AuditEntry,
} as const satisfies { [S in Subject]: z.ZodType };

export type EventData<S extends Subject> = z.infer<(typeof eventDataSchemas)[S]>;

export interface EventEnvelope<S extends Subject = Subject> {
  id: string;
  type: S;
  occurredAt: string;
  data: EventData<S>;
}

/** An envelope whose `data` narrows when `type` is checked. */
export type AnyEvent = { [S in Subject]: EventEnvelope<S> }[Subject];

export const EventEnvelopeSchema = z.object({
  id: z.uuid(),
  type: z.enum(allSubjects as [Subject, ...Subject[]]),
  occurredAt: IsoDateTime,
  data: z.unknown(),
});

/**
 * Validates the envelope and its data by type; throws a ZodError on anything bad. The answer narrows: checking its
 * `type` types its `data` (the one cast is here, where the data was parsed with that type's schema).
 */
export function parseEvent(raw: unknown): AnyEvent {
  const envelope = EventEnvelopeSchema.parse(typeof raw === 'string' ? JSON.parse(raw) : raw);
  const data = eventDataSchemas[envelope.type].parse(envelope.data);
  return { ...envelope, data } as AnyEvent;
}

/** A new envelope with a fresh id (also the JetStream message id). */
export function createEvent<S extends Subject>(
  type: S,
  data: EventData<S>,
  opts: { id?: string; occurredAt?: Date } = {},
): EventEnvelope<S> {
  const parsed = eventDataSchemas[type].parse(data) as EventData<S>;
  return {
    id: opts.id ?? crypto.randomUUID(),
    type,
    occurredAt: (opts.occurredAt ?? new Date()).toISOString(),
    data: parsed,
  };
}

export const DUPLICATE_WINDOW_MS = 120000;

/**
 * How long a stream keeps a message: without a limit the streams grew for as long as the product ran. Every consumer
 * is durable and acks within seconds, so this is how long a service may stay down and still catch up with what it
 * missed (a week: a stop over a long weekend with time to spare). The outbox (docs/platform.md) has already handed
 * each event over, so an expired message is one nobody read in a week, not one never published.
 */
export const STREAM_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

export interface StreamDef {
  name: string;
  subjects: string[];
  retention: 'limits' | 'workqueue';
  duplicateWindowMs: number;
  maxAgeMs: number;
}

export const streams: ReadonlyArray<StreamDef> = [
  {
    name: 'ACCOUNT',
    subjects: ['account.>'],
    retention: 'limits',
    duplicateWindowMs: DUPLICATE_WINDOW_MS,
    maxAgeMs: STREAM_MAX_AGE_MS,
  },
  {
    name: 'FILES',
    subjects: ['files.file.>', 'files.page.>', 'files.playlist.>'],
    retention: 'limits',
    duplicateWindowMs: DUPLICATE_WINDOW_MS,
    maxAgeMs: STREAM_MAX_AGE_MS,
  },
  {
    name: 'CONVERSION',
    subjects: ['files.conversion.>'],
    retention: 'workqueue',
    duplicateWindowMs: DUPLICATE_WINDOW_MS,
    maxAgeMs: STREAM_MAX_AGE_MS,
  },
  {
    name: 'MARKETPLACE',
    subjects: ['marketplace.>'],
    retention: 'limits',
    duplicateWindowMs: DUPLICATE_WINDOW_MS,
    maxAgeMs: STREAM_MAX_AGE_MS,
  },
  {
    name: 'BILLING',
    subjects: ['billing.>'],
    retention: 'limits',
    duplicateWindowMs: DUPLICATE_WINDOW_MS,
    maxAgeMs: STREAM_MAX_AGE_MS,
  },
  {
    name: 'SCREENS',
    subjects: ['screens.>'],
    retention: 'limits',
    duplicateWindowMs: DUPLICATE_WINDOW_MS,
    maxAgeMs: STREAM_MAX_AGE_MS,
  },
  // Audit entries on their way to the account service's chained log (the log, not the stream, is what is kept).
  {
    name: 'AUDIT',
    subjects: ['audit.>'],
    retention: 'limits',
    duplicateWindowMs: DUPLICATE_WINDOW_MS,
    maxAgeMs: STREAM_MAX_AGE_MS,
  },
];

/**
 * The disaster alert feed: raw report XML (JMA or CAP, not an event envelope) on `alerts.report.v1`, message id
 * `<source>:<sha256 of the bytes>`, published by the alerts poller and the replay CLI (packages/alerts) and read by
 * the screens service. Created idempotently by whoever uses it first (not in `streams`: nothing else publishes here).
 */
export const ALERT_REPORT_SUBJECT = 'alerts.report.v1';
export const alertStream: StreamDef = {
  name: 'ALERTS',
  subjects: ['alerts.>'],
  retention: 'limits',
  duplicateWindowMs: DUPLICATE_WINDOW_MS,
  maxAgeMs: STREAM_MAX_AGE_MS,
};

/** NATS subject match with `*` (one token) and `>` (one or more trailing tokens). */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

/** The stream that stores a subject. */
export function streamForSubject(subject: string): StreamDef | undefined {
  return streams.find((stream) => stream.subjects.some((pattern) => subjectMatches(pattern, subject)));
}
