import { createHash } from 'node:crypto';
import type { AuditChange, AuditEntry } from '@pagecast/contracts';

// The audit log's hash chain, as plain functions (no I/O): the account service chains entries with them, its
// verify command and its tests check chains with them, and anyone holding an export can recompute them.

/** The previous hash of a workspace's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * JSON with object keys sorted at every level and no spaces, so the same value always gives the same text whatever
 * order a database returned its fields in. Values are taken as JSON.stringify would (toJSON first, undefined object
 * members left out, non-finite numbers refused: they would come back as null and break the hash).
 */
export function canonicalJson(value: unknown): string {
  const walk = (v: unknown): string => {
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      return walk((v as { toJSON(): unknown }).toJSON());
    }
    if (v === null) return 'null';
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new Error(`canonicalJson: ${v} has no JSON form`);
      return JSON.stringify(v);
    }
    if (typeof v === 'string' || typeof v === 'boolean') return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? 'null' : walk(x))).join(',')}]`;
    if (typeof v === 'object') {
      const keys = Object.keys(v as object)
        .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${walk((v as Record<string, unknown>)[k])}`).join(',')}}`;
    }
    throw new Error(`canonicalJson: a ${typeof v} has no JSON form`);
  };
  return walk(value);
}

/** What an entry's hash covers: the published entry and its place in the workspace's chain. */
export interface ChainedEntry extends AuditEntry {
  seq: number;
}

/** The hashed fields of a stored row (its prevHash, hash, diff and database id are not part of its content). */
export function chainedContent(row: ChainedEntry): ChainedEntry {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    seq: row.seq,
    actorUserId: row.actorUserId,
    address: row.address,
    action: row.action,
    object: { type: row.object.type, id: row.object.id },
    before: row.before,
    after: row.after,
    at: row.at,
  };
}

/** hash = sha256(prevHash + canonical JSON of the entry), hex. */
export function chainHash(prevHash: string, entry: ChainedEntry): string {
  return createHash('sha256')
    .update(prevHash + canonicalJson(chainedContent(entry)))
    .digest('hex');
}

/** The row that follows `head` (null: the workspace's first). */
export function nextLink(
  head: { seq: number; hash: string } | null,
  entry: AuditEntry,
): ChainedEntry & { prevHash: string; hash: string } {
  const seq = (head?.seq ?? 0) + 1;
  const prevHash = head?.hash ?? GENESIS_HASH;
  const chained = { ...entry, seq };
  return { ...chained, prevHash, hash: chainHash(prevHash, chained) };
}

export type ChainBreak = 'seq' | 'workspace' | 'prev-hash' | 'hash' | 'truncated';

export type ChainVerdict =
  | { ok: true; length: number; head: string }
  | {
      ok: false;
      length: number;
      /** the first link that does not hold: its position (1-based), the seq it carries, its id and why */
      broken: { position: number; seq: number | null; id: string | null; reason: ChainBreak };
    };

/**
 * Checks one workspace's rows in the order stored (by seq), one at a time, so a long log is never held whole: seq 1,
 * 2, ... without gaps, one workspace, each prevHash the previous row's hash, each hash recomputed. An edit of any
 * hashed field, a removed or inserted row and a swap all break a link; the first is named. Removing the newest rows
 * leaves a shorter chain that holds: `expected` (a length and head hash noted earlier, e.g. from a previous run)
 * catches that too.
 */
export function chainVerifier(expected?: { length: number; head: string }) {
  let prev = GENESIS_HASH;
  let length = 0;
  let workspaceId: string | undefined;
  let last: { seq: number | null; id: string | null } | undefined;
  let broken: Extract<ChainVerdict, { ok: false }>['broken'] | undefined;
  const check = (row: ChainedEntry & { prevHash: string; hash: string }): ChainBreak | null => {
    if (row.seq !== length) return 'seq';
    if (row.workspaceId !== workspaceId) return 'workspace';
    if (row.prevHash !== prev) return 'prev-hash';
    try {
      if (row.hash !== chainHash(prev, row)) return 'hash';
    } catch {
      return 'hash';
    }
    return null;
  };
  return {
    /** The next row; after the first broken link the rest are only counted. */
    push(row: ChainedEntry & { prevHash: string; hash: string }): void {
      length++;
      workspaceId ??= row.workspaceId;
      last = { seq: typeof row.seq === 'number' ? row.seq : null, id: row.id ?? null };
      if (broken) return;
      const reason = check(row);
      if (reason) broken = { position: length, ...last, reason };
      else prev = row.hash;
    },
    verdict(): ChainVerdict {
      if (broken) return { ok: false, length, broken };
      if (expected && (length < expected.length || (length === expected.length && prev !== expected.head))) {
        return {
          ok: false,
          length,
          broken: { position: length, seq: last?.seq ?? null, id: last?.id ?? null, reason: 'truncated' },
        };
      }
      return { ok: true, length, head: prev };
    },
  };
}

/** chainVerifier over rows at hand. */
export function verifyChain(
  rows: ReadonlyArray<ChainedEntry & { prevHash: string; hash: string }>,
  expected?: { length: number; head: string },
): ChainVerdict {
  const verifier = chainVerifier(expected);
  for (const row of rows) verifier.push(row);
  return verifier.verdict();
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The changed values between two snapshots, nested: objects are compared member by member (a member only on one
 * side is a change from or to undefined); arrays and other values are compared whole by their canonical JSON.
 * Unchanged members are left out; paths in key order.
 */
export function auditDiff(before: unknown, after: unknown, path: string[] = []): AuditChange[] {
  // a creation or a deletion lists each member that appeared or went
  const members = (v: unknown) => isPlainObject(v) && Object.keys(v).length > 0;
  if (path.length === 0 && before === null && members(after)) return auditDiff({}, after, path);
  if (path.length === 0 && after === null && members(before)) return auditDiff(before, {}, path);
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    // own members only: `before.toString` would read Object.prototype's for a key one side lacks
    const own = (o: Record<string, unknown>, k: string) => (Object.hasOwn(o, k) ? o[k] : undefined);
    return keys.flatMap((k) => auditDiff(own(before, k), own(after, k), [...path, k]));
  }
  const same =
    before === undefined || after === undefined ? before === after : canonicalJson(before) === canonicalJson(after);
  return same ? [] : [{ path, before, after }];
}
