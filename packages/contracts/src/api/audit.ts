// The audit log: who changed what in a workspace, when, from which address, with the object before and after.
// Services publish an entry (AuditEntry) through their outbox on `audit.<service>.entry.v1` (stream AUDIT); the
// account service chains each workspace's entries by hash into `audit_log` and serves them to the workspace's admins.
// Entries hold codes and values only, never sentences: the pages word them in the reader's language.
import { z } from 'zod';
import { defineRoutes } from '../route-def';
import { Id, IsoDateTime } from '../validation';

/** What was done, as a code `<object>.<verb>`. A new kind of change adds its code here. */
export const AuditAction = z.enum([
  'file.created',
  'file.updated',
  'file.deleted',
  'file.published',
  'file.unpublished',
  'playlist.created',
  'playlist.deleted',
  'playlist.items-saved',
  'playlist.item-added',
  'playlist.item-removed',
  'screen.paired',
  'screen.updated',
  'screen.revoked',
  'group.created',
  'group.updated',
  'group.deleted',
  'group.order-set',
  'alert-rules.updated',
  'takeover.started',
  'takeover.ended',
  'takeover-template.created',
  'takeover-template.updated',
  'takeover-template.deleted',
  'bulk-change.applied',
  'workspace.updated',
  'member.added',
  'member.updated',
  'member.removed',
  'invitation.created',
  'invitation.revoked',
  'proposal.created',
  'proposal.approved',
  'proposal.rejected',
  'proposal.withdrawn',
  'points.bought',
  'plan.upgraded',
  'plan.downgrade-scheduled',
  'plan.downgrade-cancelled',
  'plan.downgraded',
  'plan.renewal-failed',
  'plan.trial-ended',
  'licence.bought',
  'sale.completed',
]);
export type AuditAction = z.infer<typeof AuditAction>;

/** The kind of object an entry is about. */
export const AuditObjectType = z.enum([
  'file',
  'playlist',
  'screen',
  'group',
  'takeover',
  'takeover-template',
  'bulk-change',
  'workspace',
  'member',
  'invitation',
  'proposal',
  /** the order of a workspace's groups (precedence); its id is the workspace's */
  'group-order',
  /** a workspace's disaster alert rules; its id is the workspace's */
  'alert-rules',
  /** points bought by card: a ledger credit */
  'points-purchase',
  /** the workspace's plan (its owner's membership); its id is the workspace's */
  'plan',
  /** a licence bought on the marketplace (its id is the purchase's) */
  'licence',
  /** a file of the workspace sold on the marketplace (its id is the purchase's) */
  'sale',
]);
export type AuditObjectType = z.infer<typeof AuditObjectType>;

/**
 * The actor of a change no member made: `system:<source>`, never a user id (the pages word it, and look no person up
 * for it). `alerts`: the disaster feed starting and ending takeovers; `billing`: the plan's renewal job (a scheduled
 * downgrade taking effect, a failed renewal, a trial's end); `marketplace`: a sale of the workspace's file (the buyer,
 * a member of another workspace, is not named to the seller).
 */
export const AUDIT_SYSTEM_ACTORS = {
  alerts: 'system:alerts',
  billing: 'system:billing',
  marketplace: 'system:marketplace',
} as const;
export type AuditSystemActor = (typeof AUDIT_SYSTEM_ACTORS)[keyof typeof AUDIT_SYSTEM_ACTORS];
export const AUDIT_SYSTEM_ACTOR_PREFIX = 'system:';

/** The object's state as plain JSON (ids, codes, numbers, dates as ISO strings); null: it did not exist. */
export const AuditSnapshot = z.record(z.string(), z.unknown()).nullable();
export type AuditSnapshot = z.infer<typeof AuditSnapshot>;

/** One change, as a service publishes it (the event's data). `id` is deterministic per change (no duplicates). */
export const AuditEntry = z.object({
  id: z.uuid(),
  workspaceId: z.string().min(1),
  actorUserId: z.string().min(1),
  /** the client address the gateway signed */
  address: z.string(),
  action: AuditAction,
  object: z.object({ type: AuditObjectType, id: z.string().min(1) }),
  before: AuditSnapshot,
  after: AuditSnapshot,
  at: IsoDateTime,
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** One changed value: where (the keys from the top), what it was and what it became (absent: the member was not there). */
export const AuditChange = z.object({
  path: z.array(z.string()),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});
export type AuditChange = z.infer<typeof AuditChange>;

/** A stored entry: its place in the workspace's chain and the difference of before and after. */
export const AuditRecord = AuditEntry.extend({
  seq: z.number().int().positive(),
  prevHash: z.string(),
  hash: z.string(),
  diff: z.array(AuditChange),
});
export type AuditRecord = z.infer<typeof AuditRecord>;

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

export const AuditParams = z.object({ id: Id });
export type AuditParams = z.infer<typeof AuditParams>;

/** Filters (all optional, combined with and) and the page; newest first. */
export const AuditQuery = z.object({
  actor: Id.optional(),
  action: AuditAction.optional(),
  objectType: AuditObjectType.optional(),
  from: IsoDateTime.optional(),
  to: IsoDateTime.optional(),
  /** the previous page's nextCursor */
  cursor: z.string().regex(/^\d+$/, 'validation.invalid').optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(AUDIT_PAGE_DEFAULT),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditPage = z.object({
  entries: z.array(AuditRecord),
  /** null: no older entry matches */
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof AuditPage>;

/** The CSV export's columns, in order (RFC 4180, header row first; before, after and diff as JSON). */
export const AUDIT_CSV_COLUMNS = [
  'seq',
  'at',
  'actorUserId',
  'address',
  'action',
  'objectType',
  'objectId',
  'before',
  'after',
  'diff',
  'hash',
] as const;

export const auditRoutes = defineRoutes([
  {
    id: 'workspaceAudit',
    method: 'get',
    path: '/api/workspaces/:id/audit',
    service: 'account',
    auth: 'session',
    action: 'audit.read',
    summary: "The workspace's audit log, newest first, filtered (its owner and admins)",
    params: AuditParams,
    query: AuditQuery,
    response: AuditPage,
  },
  {
    id: 'workspaceAuditCsv',
    method: 'get',
    path: '/api/workspaces/:id/audit.csv',
    service: 'account',
    auth: 'session',
    action: 'audit.read',
    summary: "The workspace's audit log as CSV, newest first, with the same filters (its owner and admins)",
    params: AuditParams,
    query: AuditQuery.omit({ cursor: true, limit: true }),
    response: z.string(),
    responseContentType: 'text/csv',
  },
]);
