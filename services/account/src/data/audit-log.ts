import type { AuditEntry } from '@pagecast/contracts';
import { type ChainedEntry, isDuplicateKeyError, LRUCache, nextLink } from '@pagecast/service-kit';
import mongoose from 'mongoose';

/**
 * A stored row: `_id` = `<workspaceId>:<seq>` (its place in the workspace's chain), the entry (its own id as `id`),
 * the previous row's hash and its own.
 */
export interface AuditRow extends ChainedEntry {
  _id: string;
  prevHash: string;
  hash: string;
  /** when account chained it (not hashed: `at` is when the change was made) */
  recordedAt: Date;
}

/** A row as the chain functions read it. */
export const chainedRow = (r: AuditRow): ChainedEntry & { prevHash: string; hash: string } => {
  const { _id, recordedAt: _, ...rest } = r;
  return rest;
};

/** The `_id` of a workspace's row at `seq`. */
export const auditRowId = (workspaceId: string, seq: number) => `${workspaceId}:${seq}`;

const auditSchema = new mongoose.Schema<AuditRow>(
  {
    _id: { type: String, required: true },
    id: { type: String, required: true },
    workspaceId: { type: String, required: true },
    seq: { type: Number, required: true },
    actorUserId: { type: String, required: true },
    address: { type: String, required: true },
    action: { type: String, required: true },
    // { type, id }: Mixed, since a nested member called `type` would read as a type declaration
    object: { type: mongoose.Schema.Types.Mixed, required: true },
    before: { type: mongoose.Schema.Types.Mixed },
    after: { type: mongoose.Schema.Types.Mixed },
    at: { type: String, required: true },
    prevHash: { type: String, required: true },
    hash: { type: String, required: true },
    recordedAt: { type: Date, required: true },
  },
  // an empty object in a snapshot must stay as written: the hash covers it
  { collection: 'audit_log', versionKey: false, minimize: false },
);

/** Which entries are chained, and where: `_id` = the entry's id. Written after its row. */
interface AuditEntryIdRecord {
  _id: string;
  row: string;
}
const entryIdSchema = new mongoose.Schema<AuditEntryIdRecord>(
  { _id: { type: String, required: true }, row: { type: String, required: true } },
  { collection: 'audit_entry_ids', versionKey: false },
);

const defineModel = (conn: mongoose.Connection) => conn.model('AuditRow', auditSchema);
const defineIdModel = (conn: mongoose.Connection) => conn.model('AuditEntryId', entryIdSchema);
type AuditModel = ReturnType<typeof defineModel>;
type AuditIdModel = ReturnType<typeof defineIdModel>;

export interface AuditFilter {
  workspaceId: string;
  actor?: string;
  action?: string;
  objectType?: string;
  /** ISO instants, both ends included */
  from?: string;
  to?: string;
  /** only rows older than this seq (the previous page's last) */
  beforeSeq?: number;
}

const HEAD_RACE_ATTEMPTS = 20;
/** Workspaces whose chain head this process remembers (seq, hash and entry id). */
const HEADS_KEPT = 10_000;
/** Rows read by one `_id: {$in}` (our FerretDB serves a list of up to 500 by the index). */
const READ_BATCH = 500;

type Head = { seq: number; hash: string; id: string };

/**
 * The audit log: appended to, read, never changed. There is deliberately no update or delete here, nor anywhere
 * else (no route, no TTL, no sweep): rows are kept for as long as the database is (at least the 400 days promised).
 *
 * Every read on a path that grows with the log goes by `_id`, the only field FerretDB serves by an index
 * (docs/platform.md): a row's `_id` is its place, `<workspaceId>:<seq>`, so the head is found by a few lookups and a
 * page is one `$in` of the seqs below the cursor. Measured with the first layout (a unique (workspaceId, seq) index,
 * queries by workspace sorted by seq): the newest page took 26, 168 and 898 ms at 100, 1,000 and 4,000 rows of a
 * workspace, since FerretDB scans for such a query.
 */
export function createAuditLogRepository(conn: mongoose.Connection) {
  const model = (conn.models.AuditRow as AuditModel | undefined) ?? defineModel(conn);
  const ids = (conn.models.AuditEntryId as AuditIdModel | undefined) ?? defineIdModel(conn);
  const heads = new LRUCache<string, Head>({ max: HEADS_KEPT });

  const rowAt = (workspaceId: string, seq: number) =>
    model.findById(auditRowId(workspaceId, seq), { seq: 1, hash: 1, id: 1 }).lean<Head>();

  /**
   * The newest row: from `known` (a row that exists; else seq 1) the step doubled until a seq is missing, then halved
   * between (lookups by `_id` only). A head remembered but overtaken (another replica wrote) costs a few lookups more.
   */
  const findHead = async (workspaceId: string, known?: Head): Promise<Head | null> => {
    let low = known ?? (await rowAt(workspaceId, 1));
    if (!low) return null;
    let step = 1;
    let high = low.seq + step;
    for (;;) {
      const row = await rowAt(workspaceId, high);
      if (!row) break;
      low = row;
      step *= 2;
      high = low.seq + step;
    }
    // low exists, high does not
    let lo = low.seq;
    let hi = high;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      const row = await rowAt(workspaceId, mid);
      if (row) {
        low = row;
        lo = mid;
      } else hi = mid;
    }
    return low;
  };

  const matches = (f: AuditFilter) => (r: AuditRow) =>
    (!f.actor || r.actorUserId === f.actor) &&
    (!f.action || r.action === f.action) &&
    (!f.objectType || r.object.type === f.objectType) &&
    // stored as toISOString's text, so text order is time order
    (!f.from || r.at >= new Date(f.from).toISOString()) &&
    (!f.to || r.at <= new Date(f.to).toISOString());

  /** The workspace's rows matching `f`, newest first, read `_id: {$in}` a batch at a time down from the cursor. */
  async function* newestFirst(f: AuditFilter, firstBatch = READ_BATCH): AsyncGenerator<AuditRow> {
    // a reader may run where another replica writes: the head remembered is only where the search starts
    const head = await findHead(f.workspaceId, heads.get(f.workspaceId));
    if (!head) return;
    let next = Math.min(head.seq, (f.beforeSeq ?? Number.POSITIVE_INFINITY) - 1);
    const keep = matches(f);
    let batch = firstBatch;
    while (next >= 1) {
      const seqs: string[] = [];
      for (let s = next; s > Math.max(0, next - batch); s--) seqs.push(auditRowId(f.workspaceId, s));
      next -= batch;
      batch = READ_BATCH;
      const rows = await model.find({ _id: { $in: seqs } }).lean<AuditRow[]>();
      rows.sort((a, b) => b.seq - a.seq);
      for (const row of rows) if (keep(row)) yield row;
    }
  }

  return {
    model,
    ids,
    /**
     * Chains an entry onto its workspace's log: seq and prevHash from the newest row, inserted under `_id`
     * `<workspaceId>:<seq>` (FerretDB's updates are read-then-write; an insert under a unique key is the one atomic
     * step). An entry already chained (a redelivery) is not written again: its id is in `audit_entry_ids`, or, when
     * a crash came between the row and that record, it is the newest row (entries are chained one at a time, in
     * order, so a redelivery comes before the next entry). A place taken by another writer meanwhile is read again
     * and the entry goes after it. The head is remembered between entries: an entry is then one lookup and two
     * inserts.
     */
    async append(entry: AuditEntry): Promise<'recorded' | 'duplicate'> {
      if (await ids.exists({ _id: entry.id })) return 'duplicate';
      for (let attempt = 0; attempt < HEAD_RACE_ATTEMPTS; attempt++) {
        const head = heads.get(entry.workspaceId) ?? (await findHead(entry.workspaceId));
        if (head?.id === entry.id) {
          await ids.collection
            .insertOne({ _id: entry.id, row: auditRowId(entry.workspaceId, head.seq) } as never)
            .catch((err: unknown) => {
              if (!isDuplicateKeyError(err)) throw err;
            });
          return 'duplicate';
        }
        const link = nextLink(head, entry);
        const rowId = auditRowId(entry.workspaceId, link.seq);
        try {
          // the driver's insert, not a mongoose document: nothing in the snapshots is cast or dropped
          await model.collection.insertOne({ _id: rowId, ...link, recordedAt: new Date() } as never);
        } catch (err) {
          if (!isDuplicateKeyError(err)) throw err;
          // the place is taken (another replica wrote, or the head remembered is stale): read the head again
          heads.delete(entry.workspaceId);
          continue;
        }
        heads.set(entry.workspaceId, { seq: link.seq, hash: link.hash, id: entry.id });
        await ids.collection.insertOne({ _id: entry.id, row: rowId } as never).catch((err: unknown) => {
          if (!isDuplicateKeyError(err)) throw err;
        });
        return 'recorded';
      }
      throw new Error(`audit log of ${entry.workspaceId}: the chain's head kept moving`);
    },
    /** Newest first, at most `limit`. */
    async page(f: AuditFilter, limit: number): Promise<AuditRow[]> {
      const out: AuditRow[] = [];
      const unfiltered = !f.actor && !f.action && !f.objectType && !f.from && !f.to;
      for await (const row of newestFirst(f, unfiltered ? limit : READ_BATCH)) {
        out.push(row);
        if (out.length >= limit) break;
      }
      return out;
    },
    /** Newest first, as read (the CSV export streams it). */
    stream(f: AuditFilter): AsyncIterable<AuditRow> {
      return newestFirst(f);
    },
    /**
     * One workspace's rows in chain order (the verify command). Deliberately not by `_id`: a row removed by hand
     * must show as a gap, so every row of the workspace is read (a scan: an operator's command, not a request).
     */
    chain(workspaceId: string): AsyncIterable<AuditRow> {
      return model.find({ workspaceId }).sort({ seq: 1 }).lean<AuditRow[]>().cursor() as AsyncIterable<AuditRow>;
    },
    async workspaces(): Promise<string[]> {
      return ((await model.distinct('workspaceId')) as string[]).sort();
    },
  };
}
export type AuditLogRepository = ReturnType<typeof createAuditLogRepository>;
