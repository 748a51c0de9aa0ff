import { AUDIT_CSV_COLUMNS, type AuditChange, type AuditRecord, type WorkspaceRole } from '@pagecast/contracts';
import { canonicalJson } from '@pagecast/service-kit';

/**
 * Who may read a workspace's audit log, by the caller's role there (null: not a member): its owner and its admins.
 * The one place this is decided for the audit routes, so it can become the policy module's `audit.read` in one edit.
 * Answers the refusal's code.
 */
export function auditReadRefusal(role: WorkspaceRole | null): 'NOT_A_MEMBER' | 'FORBIDDEN_ROLE' | null {
  if (role === null) return 'NOT_A_MEMBER';
  return role === 'owner' || role === 'admin' ? null : 'FORBIDDEN_ROLE';
}

/** An RFC 4180 field: quoted when it holds a comma, quote or line break; a leading =+-@ is neutralised (spreadsheets). */
export function csvField(value: string | number): string {
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The CSV line (CRLF-terminated) of the header row. */
export const auditCsvHeader = (): string => `${AUDIT_CSV_COLUMNS.join(',')}\r\n`;

/**
 * The CSV line of one record: before, after and the difference as canonical JSON (keys sorted: the same entry always
 * exports the same text), a side of a change that was absent as null.
 */
export function auditCsvLine(r: AuditRecord & { diff: AuditChange[] }): string {
  const json = (v: unknown) => canonicalJson(v ?? null);
  const diff = r.diff.map((c) => ({ path: c.path, before: c.before ?? null, after: c.after ?? null }));
  const cells: Record<(typeof AUDIT_CSV_COLUMNS)[number], string | number> = {
    seq: r.seq,
    at: r.at,
    actorUserId: r.actorUserId,
    address: r.address,
    action: r.action,
    objectType: r.object.type,
    objectId: r.object.id,
    before: json(r.before),
    after: json(r.after),
    diff: json(diff),
    hash: r.hash,
  };
  return `${AUDIT_CSV_COLUMNS.map((c) => csvField(cells[c])).join(',')}\r\n`;
}
