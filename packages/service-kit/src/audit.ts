import type { AuditAction, AuditEntry, AuditObjectType, AuditSnapshot } from '@pagecast/contracts';
import type { Request } from 'express';
import { canonicalJson } from './audit-chain';
import { requireIdentity } from './identity';
import { nameUuid } from './name-uuid';
import type { Outbox } from './outbox';

/** Who made a change: the person and the client address the gateway signed (req.clientAddress). */
export interface AuditActor {
  userId: string;
  address: string;
}

/** The actor of a member's call: its signed identity's person and its signed client address. */
export function auditActor(req: Request): AuditActor {
  return { userId: requireIdentity(req).userId, address: req.clientAddress ?? 'unknown' };
}

/** The services that publish audit entries, as their subjects name them (`audit.<service>.entry.v1`). */
export type AuditService = 'files' | 'screens' | 'account' | 'billing' | 'marketplace';

type AuditSubject = `audit.${AuditService}.entry.v1`;

/**
 * An object's state as the audit log keeps it: plain JSON (dates as ISO strings, undefined members dropped), the
 * database's version key left out; null stays null (the object did not exist).
 */
export function auditSnapshot(doc: unknown, omit: readonly string[] = []): AuditSnapshot {
  if (doc === null || doc === undefined) return null;
  const plain = JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
  for (const k of ['__v', ...omit]) delete plain[k];
  return plain;
}

export interface AuditedChange {
  workspaceId: string;
  actor: AuditActor;
  action: AuditAction;
  object: { type: AuditObjectType; id: string };
  before: unknown;
  after: unknown;
  /**
   * What tells this change from another one of the object with the same before and after (A to B, back, to B
   * again), when the snapshots carry no version stamp (updatedAt, version): e.g. the change's time. Stable across
   * a rerun of the same step.
   */
  key?: string;
}

/**
 * Publishes an audit entry through the service's outbox, after the change it records has been written (so a
 * refused or failed change leaves none). Its id is derived from the change (service, workspace, actor, action,
 * object, the snapshots and `key`), never random: a step run again after a crash or a retried publish gives the
 * same id, which the outbox stores once and JetStream and the account's unique index take once.
 */
export async function publishAudit(
  outbox: Outbox,
  service: AuditService,
  change: AuditedChange,
  at: Date,
): Promise<AuditEntry> {
  const before = auditSnapshot(change.before);
  const after = auditSnapshot(change.after);
  const name = canonicalJson({
    service,
    workspaceId: change.workspaceId,
    actorUserId: change.actor.userId,
    action: change.action,
    object: change.object,
    before,
    after,
    key: change.key ?? null,
  });
  const entry: AuditEntry = {
    id: nameUuid(`audit:${name}`, 'v8'),
    workspaceId: change.workspaceId,
    actorUserId: change.actor.userId,
    address: change.actor.address,
    action: change.action,
    object: change.object,
    before,
    after,
    at: at.toISOString(),
  };
  const subject: AuditSubject = `audit.${service}.entry.v1`;
  const envelope = await outbox.add(subject, entry, { id: entry.id });
  return envelope.data;
}
