import type { AuditPage, AuditQuery, AuditRecord } from '@pagecast/contracts';
import { AppError, auditDiff } from '@pagecast/service-kit';
import { type AuditFilter, type AuditRow, chainedRow, type Repositories } from '../data';
import { auditCsvHeader, auditCsvLine, auditReadRefusal } from '../domain';

type Data = Pick<Repositories, 'auditLog' | 'workspaces'>;

/**
 * Refuses (403, nothing read) a caller who may not read this workspace's log, by their stored membership (whatever
 * the gateway signed). The owner is known by the id alone: a workspace's id is its owner's user id, and an account
 * whose workspace the migration has not made yet is still its owner.
 */
async function mayRead(data: Data, caller: { userId: string }, workspaceId: string): Promise<void> {
  if (caller.userId === workspaceId) return;
  const row = await data.workspaces.member(workspaceId, caller.userId);
  const refusal = auditReadRefusal(row?.role ?? null);
  if (refusal) throw new AppError(refusal);
}

const filterOf = (workspaceId: string, q: Omit<AuditQuery, 'cursor' | 'limit'>): AuditFilter => ({
  workspaceId,
  actor: q.actor,
  action: q.action,
  objectType: q.objectType,
  from: q.from,
  to: q.to,
});

/** A stored row as the API answers it, with the difference of its before and after. */
export function toAuditRecord(row: AuditRow): AuditRecord {
  const r = chainedRow(row);
  return {
    id: r.id,
    workspaceId: r.workspaceId,
    seq: r.seq,
    actorUserId: r.actorUserId,
    address: r.address,
    action: r.action,
    object: r.object,
    before: r.before,
    after: r.after,
    at: r.at,
    prevHash: r.prevHash,
    hash: r.hash,
    diff: auditDiff(r.before, r.after),
  };
}

/** One page of the workspace's log, newest first; the cursor is the last row's seq. */
export async function readAudit(
  data: Data,
  caller: { userId: string },
  workspaceId: string,
  q: AuditQuery,
): Promise<AuditPage> {
  await mayRead(data, caller, workspaceId);
  const rows = await data.auditLog.page(
    { ...filterOf(workspaceId, q), beforeSeq: q.cursor === undefined ? undefined : Number(q.cursor) },
    q.limit + 1,
  );
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return { entries: page.map(toAuditRecord), nextCursor: rows.length > q.limit && last ? String(last.seq) : null };
}

/**
 * The workspace's log as CSV lines (header first), newest first, with the same filters: yielded as read, so a long
 * log is never held whole. The refusal comes before the first line (awaited before any line is sent).
 */
export async function exportAuditCsv(
  data: Data,
  caller: { userId: string },
  workspaceId: string,
  q: Omit<AuditQuery, 'cursor' | 'limit'>,
): Promise<AsyncIterable<string>> {
  await mayRead(data, caller, workspaceId);
  const rows = data.auditLog.stream(filterOf(workspaceId, q));
  return (async function* () {
    yield auditCsvHeader();
    for await (const row of rows) yield auditCsvLine(toAuditRecord(row));
  })();
}
