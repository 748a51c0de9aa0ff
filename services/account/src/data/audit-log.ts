import type { AuditEntry } from '@pagecast/contracts';
import { type ChainedEntry, isDuplicateKeyError, LRUCache, nextLink } from '@pagecast/service-kit';
import mongoose from 'mongoose';

/** A stored row: the entry (its id as `_id`), its seq in the workspace's chain, the previous row's hash and its own. */
export interface AuditRow extends Omit<ChainedEntry, 'id'> {
  _id: string;
  prevHash: string;
  hash: string;
  /** when account chained it (not hashed: `at` is when the change was made) */
  recordedAt: Date;
}

/** A row as the chain functions read it. */
export const chainedRow = (r: AuditRow): ChainedEntry & { prevHash: string; hash: string } => {
  const { _id, recordedAt: _, ...rest } = r;
  return { ...rest, id: _id };
};

const auditSchema = new mongoose.Schema<AuditRow>(
  {
    _id: { type: String, required: true },
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
// The chain's one atomic step: a second writer of the same place in a workspace's chain is refused (FerretDB's
// updates are read-then-write; an insert under a unique key is not). It also serves the newest-first reads.
auditSchema.index({ workspaceId: 1, seq: 1 }, { unique: true });

const defineModel = (conn: mongoose.Connection) => conn.model('AuditRow', auditSchema);
type AuditModel = ReturnType<typeof defineModel>;

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
/** Workspaces whose chain head this process remembers (one entry each: seq and hash). */
const HEADS_KEPT = 10_000;

/**
 * The audit log: appended to, read, never changed. There is deliberately no update or delete here, nor anywhere
 * else (no route, no TTL, no sweep): rows are kept for as long as the database is (at least the 400 days promised).
 */
export function createAuditLogRepository(conn: mongoose.Connection) {
  const model = (conn.models.AuditRow as AuditModel | undefined) ?? defineModel(conn);
  const heads = new LRUCache<string, { seq: number; hash: string }>({ max: HEADS_KEPT });

  const query = (f: AuditFilter): mongoose.QueryFilter<AuditRow> => {
    const q: Record<string, unknown> = { workspaceId: f.workspaceId };
    if (f.actor) q.actorUserId = f.actor;
    if (f.action) q.action = f.action;
    if (f.objectType) q['object.type'] = f.objectType;
    if (f.from || f.to) {
      // stored as toISOString's text, so text order is time order
      q.at = {
        ...(f.from ? { $gte: new Date(f.from).toISOString() } : {}),
        ...(f.to ? { $lte: new Date(f.to).toISOString() } : {}),
      };
    }
    if (f.beforeSeq !== undefined) q.seq = { $lt: f.beforeSeq };
    return q as mongoose.QueryFilter<AuditRow>;
  };

  return {
    model,
    /**
     * Chains an entry onto its workspace's log: seq and prevHash from the newest row, inserted under the unique
     * (workspaceId, seq). An entry already recorded (a redelivery: same id) is not written again; a place taken by
     * another writer meanwhile is read again and the entry goes after it. The head is remembered between entries
     * (measured: exists + head read + insert took 2 + 6 + 3 ms on FerretDB, and the consumer handles one entry at a
     * time); a stale one only costs a refused insert and a read.
     */
    async append(entry: AuditEntry): Promise<'recorded' | 'duplicate'> {
      for (let attempt = 0; attempt < HEAD_RACE_ATTEMPTS; attempt++) {
        // the head this process chained last, else read: one insert per entry while this process is the writer
        const head =
          heads.get(entry.workspaceId) ??
          (await model
            .findOne({ workspaceId: entry.workspaceId }, { seq: 1, hash: 1 })
            .sort({ seq: -1 })
            .lean<{ seq: number; hash: string }>()) ??
          null;
        const { id, ...link } = nextLink(head, entry);
        try {
          // the driver's insert, not a mongoose document: nothing in the snapshots is cast or dropped
          await model.collection.insertOne({ _id: id, ...link, recordedAt: new Date() } as never);
          heads.set(entry.workspaceId, { seq: link.seq, hash: link.hash });
          return 'recorded';
        } catch (err) {
          if (!isDuplicateKeyError(err)) throw err;
          // the entry itself (a redelivery), or its place taken (another replica wrote, or the head remembered is
          // stale): read the head again
          heads.delete(entry.workspaceId);
          if (await model.exists({ _id: entry.id })) return 'duplicate';
        }
      }
      throw new Error(`audit log of ${entry.workspaceId}: the chain's head kept moving`);
    },
    /** Newest first. */
    async page(f: AuditFilter, limit: number): Promise<AuditRow[]> {
      return model.find(query(f)).sort({ seq: -1 }).limit(limit).lean<AuditRow[]>();
    },
    /** Newest first, as a cursor (the CSV export streams it). */
    stream(f: AuditFilter): AsyncIterable<AuditRow> {
      return model.find(query(f)).sort({ seq: -1 }).lean<AuditRow[]>().cursor() as AsyncIterable<AuditRow>;
    },
    /** One workspace's rows in chain order (the verify command). */
    chain(workspaceId: string): AsyncIterable<AuditRow> {
      return model.find({ workspaceId }).sort({ seq: 1 }).lean<AuditRow[]>().cursor() as AsyncIterable<AuditRow>;
    },
    async workspaces(): Promise<string[]> {
      return ((await model.distinct('workspaceId')) as string[]).sort();
    },
  };
}
export type AuditLogRepository = ReturnType<typeof createAuditLogRepository>;
