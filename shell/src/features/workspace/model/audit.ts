// Wording and formatting of the audit log's entries, which hold codes and plain JSON only.
import { AUDIT_SYSTEM_ACTOR_PREFIX } from '@pagecast/contracts';
import type { TFunction } from 'i18next';

/**
 * An action code `<object>.<verb>` in words (the catalogues nest them by object); a code they do not know yet shows
 * as itself (a code of another shape is never looked up: `file` alone would name the object's whole group).
 */
export const auditActionWord = (t: TFunction, code: string): string =>
  /^[a-z-]+\.[a-z-]+$/.test(code) ? t(`workspace.audit.actions.${code}`, { defaultValue: code }) : code;

/** Whether an actor is Pagecast itself (`system:<source>`), never a person. */
export const isSystemActor = (actorUserId: string) => actorUserId.startsWith(AUDIT_SYSTEM_ACTOR_PREFIX);

/**
 * Who made the change: a system actor (`system:<source>`, e.g. the disaster feed) in words, never looked up as a
 * person; anyone else by `personName` (a member's name), or "a former member" when they are no member any more (the
 * members list holds current members only; the page keeps their id at hand for an auditor, see `formerActor`).
 */
export function auditActorWord(t: TFunction, actorUserId: string, personName: (id: string) => string | undefined) {
  if (isSystemActor(actorUserId)) {
    const source = actorUserId.slice(AUDIT_SYSTEM_ACTOR_PREFIX.length);
    return /^[a-z-]+$/.test(source)
      ? t(`workspace.audit.system.${source}`, { defaultValue: actorUserId })
      : actorUserId;
  }
  return personName(actorUserId) ?? t('workspace.audit.formerMember');
}

/** Whether an actor is a person the members list no longer holds (removed, or gone with their account). */
export const formerActor = (actorUserId: string, personName: (id: string) => string | undefined) =>
  !isSystemActor(actorUserId) && personName(actorUserId) === undefined;

/** An object type in words; an unknown one as itself. */
export const auditObjectWord = (t: TFunction, type: string): string =>
  /^[a-z-]+$/.test(type) ? t(`workspace.audit.objects.${type}`, { defaultValue: type }) : type;

/** A moment in the reader's language and time zone, to the second (entries can be seconds apart). */
export function formatAuditMoment(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));
}

/** The first moment of a day `YYYY-MM-DD` of the reader's calendar, as an ISO moment. */
export function dayStart(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 0, (m ?? 1) - 1, d ?? 1, 0, 0, 0, 0).toISOString();
}

/** The last moment of a day `YYYY-MM-DD` of the reader's calendar (the server's `to` includes it). */
export function dayEnd(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 0, (m ?? 1) - 1, d ?? 1, 23, 59, 59, 999).toISOString();
}
