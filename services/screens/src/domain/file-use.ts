// Whether a screen's owner may use a file, one function per purpose, side by side. The answers differ on purpose:
// giving content is judged now and strictly, reports and play records are judged at their own time and leniently
// where the display cannot know better (a deletion or a licence end takes time to reach it).

/** What the read models know of a file (undefined: not heard of). */
export interface FileUse {
  ownerId: string;
  /** ms since 1970, null = not deleted */
  deletedAt: number | null;
}
/** A licence held from `from` (purchase) until `to` (its end, excluded). */
export interface LicencePeriod {
  from: number;
  to: number;
}

const owns = (file: FileUse | undefined, ownerId: string) => file !== undefined && file.ownerId === ownerId;
const liveAt = (licences: readonly LicencePeriod[], t: number) => licences.some((l) => l.from <= t && t < l.to);

/**
 * Giving it to screens (an assignment, a group's, a takeover's file), judged now: the member's own file not deleted,
 * or a licence live now. Strict: what is given now is what displays will fetch and play from now on.
 */
export function mayAssign(
  file: FileUse | undefined,
  ownerId: string,
  licences: readonly LicencePeriod[],
  now: number,
): boolean {
  if (file === undefined || file.deletedAt !== null) return false;
  return file.ownerId === ownerId || liveAt(licences, now);
}

/**
 * A display saying it shows a page of it (a heartbeat): the owner's file even if deleted since, or any licence that
 * started by now, ended or not. A display stuck on what it had (a stale manifest, a deletion or licence end it has
 * not heard of) is the "wrong content" its owner must see: refusing the report would hide it as offline. Only a file
 * the owner never had a right to is refused.
 */
export function mayReportShown(
  file: FileUse | undefined,
  ownerId: string,
  licences: readonly LicencePeriod[],
  now: number,
): boolean {
  if (file === undefined) return false;
  return file.ownerId === ownerId || licences.some((l) => l.from <= now);
}

/**
 * A play record counting (proof of play), judged at the record's start `t`: the owner's file (deleted or not: a
 * deletion is judged by what the screen was given then, which gives the display a minute to hear of it), or a
 * licence live at `t` (a licence bought later or ended before does not cover it).
 */
export function mayCountPlay(
  file: FileUse | undefined,
  ownerId: string,
  licences: readonly LicencePeriod[],
  t: number,
): boolean {
  return owns(file, ownerId) || liveAt(licences, t);
}

/**
 * Until when a file may appear in an agenda starting at `from`: null (no end) for the owner's own file; the end of
 * the licences live at `from` for a bought one; `from` itself (it stops at once) when none is live then. The agenda
 * shows what displays will play, and they stop a bought file at its licence's end by themselves.
 */
export function agendaUntil(
  file: FileUse | undefined,
  ownerId: string,
  licences: readonly LicencePeriod[],
  from: number,
): number | null {
  if (owns(file, ownerId)) return null;
  const live = licences.filter((l) => l.from <= from && from < l.to);
  return live.length > 0 ? Math.max(...live.map((l) => l.to)) : from;
}
