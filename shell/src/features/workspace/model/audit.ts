// Wording and formatting of the audit log's entries, which hold codes and plain JSON only.
import type { TFunction } from 'i18next';

/**
 * An action code `<object>.<verb>` in words (the catalogues nest them by object); a code they do not know yet shows
 * as itself (a code of another shape is never looked up: `file` alone would name the object's whole group).
 */
export const auditActionWord = (t: TFunction, code: string): string =>
  /^[a-z-]+\.[a-z-]+$/.test(code) ? t(`workspace.audit.actions.${code}`, { defaultValue: code }) : code;

/** An object type in words; an unknown one as itself. */
export const auditObjectWord = (t: TFunction, type: string): string =>
  /^[a-z-]+$/.test(type) ? t(`workspace.audit.objects.${type}`, { defaultValue: type }) : type;

/** A moment in the reader's language and time zone, to the second (entries can be seconds apart). */
export function formatAuditMoment(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));
}

/** A changed value as text: strings as they are, anything else as JSON. */
export function auditValue(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
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
