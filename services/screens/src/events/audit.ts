import { AUDIT_SYSTEM_ACTORS, type AuditAction, type AuditObjectType } from '@pagecast/contracts';
import { type AuditActor, publishAudit } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { GroupDoc, ScreenRecord, TakeoverDoc } from '../data';

/** A screen as the audit log keeps it: its settings, what it plays (assignment and schedule) and its groups. */
export const screenAuditSnapshot = (s: ScreenRecord) => ({
  name: s.name,
  timeZone: s.timeZone,
  rotation: s.rotation ?? 0,
  openingHours: s.openingHours ?? null,
  place: s.place ?? null,
  assignment: s.assignment,
  groupIds: s.groupIds ?? [],
});

/** A group as the audit log keeps it: its settings, what its screens play and which screens are in it. */
export const groupAuditSnapshot = (g: GroupDoc, screenIds: readonly string[]) => ({
  name: g.name,
  assignment: g.assignment,
  openingHours: g.openingHours ?? null,
  alertAfterMinutes: g.alertAfterMinutes ?? null,
  place: g.place ?? null,
  screenIds: [...screenIds].sort(),
});

/** A takeover as the audit log keeps it: what it shows where, and from when to when. */
export const takeoverAuditSnapshot = (t: TakeoverDoc) => ({
  target: t.target,
  content: t.content,
  templateId: t.templateId,
  screenIds: t.screenIds,
  startedAt: t.startedAt,
  endsAt: t.endsAt,
  endedAt: t.endedAt,
  // a disaster alert's: the event and the report that started it (absent for a member's takeover)
  ...(t.alert ? { alert: t.alert } : {}),
});

/** The disaster feed as the actor of the takeovers it starts and ends: no member, no client address. */
export const ALERTS_ACTOR: AuditActor = { userId: AUDIT_SYSTEM_ACTORS.alerts, address: '' };

/**
 * Records a change in the owner's workspace's audit log (a workspace's id is its owner's user id). These records
 * carry no version stamp, so the change's time (or `key`) tells two identical changes apart.
 */
export function auditScreensChange(
  ctx: ServiceContext,
  actor: AuditActor,
  change: {
    workspaceId: string;
    action: AuditAction;
    object: { type: AuditObjectType; id: string };
    before: unknown;
    after: unknown;
    /** what tells this change apart (default: its time); stable when the step may run again */
    key?: string;
  },
) {
  const at = new Date(ctx.clock.ms());
  return publishAudit(ctx.outbox, 'screens', { ...change, actor, key: change.key ?? at.toISOString() }, at);
}
