import { randomUUID } from 'node:crypto';
import { createGroupCommit } from '@pagecast/service-kit';
import mongoose from 'mongoose';
import { passwordHashesInProgress } from '../domain';

/** The sessions store the spec names: { _id: sid, sess, expire }. */
export interface SessionRecord {
  _id: string;
  sess: { userId: string; createdAt: Date; userAgent: string | null; ip: string | null };
  expire: Date;
}

const sessionSchema = new mongoose.Schema<SessionRecord>(
  {
    _id: { type: String, required: true },
    sess: {
      userId: { type: String, required: true },
      createdAt: { type: Date, required: true },
      userAgent: { type: String, default: null },
      ip: { type: String, default: null },
    },
    expire: { type: Date, required: true },
  },
  { collection: 'sessions', versionKey: false, minimize: false },
);
sessionSchema.index({ 'sess.userId': 1 });
// Plain index, swept by the service: FerretDB has no TTL indexes.
sessionSchema.index({ expire: 1 });

const defineModel = (conn: mongoose.Connection) => conn.model('Session', sessionSchema);
type SessionModel = ReturnType<typeof defineModel>;

export function createSessionRepository(conn: mongoose.Connection) {
  const model = (conn.models.Session as SessionModel | undefined) ?? defineModel(conn);
  // Logins that arrive while an insert runs share the next one (the kit's group commit): each database command
  // costs FerretDB a wake-up and a round of work whatever it holds, taken from the password hashes on the same cores.
  // While other password checks are running (their logins will want a session too), a write also waits 30 ms for
  // more. Its logins' answers then go out together, so the next logins arrive together too, and their member reads
  // share a command (users.ts): at 50 in flight (npm run bench -- login, scratch runs taking turns), this thread's CPU
  // per login fell from 1.38-1.47 ms with 10 ms to 1.03-1.09 ms with 30 ms, FerretDB's by about 14%; 60 ms took off
  // little more. The hash's queue is several hundred ms then. A lone login does not wait, nor does one member's
  // login after another (it waited each time when "under load" meant a write ended less than the linger before).
  // Each caller still waits until its own session is stored. Past the 30 ms, the next login's session starts the
  // write (the hashes end every few ms under load), the timer only after 60 ms without one.
  const inserts = createGroupCommit<SessionRecord>(
    (docs) => model.collection.insertMany(docs as never[]).then(() => undefined),
    { maxBatch: 100, lingerMs: 30, maxLingerMs: 60, moreComing: () => passwordHashesInProgress() > 0 },
  );
  return {
    model,
    async create(input: {
      userId: string;
      userAgent: string | null;
      ip: string | null;
      lifetimeMs: number;
    }): Promise<SessionRecord> {
      const now = new Date();
      const doc: SessionRecord = {
        _id: randomUUID(),
        sess: { userId: input.userId, createdAt: now, userAgent: input.userAgent, ip: input.ip },
        expire: new Date(now.getTime() + input.lifetimeMs),
      };
      await inserts.add(doc._id, doc);
      return doc;
    },
    /** The session when it exists and has not expired. */
    findActive(sid: string, now = new Date()): Promise<SessionRecord | null> {
      return model.findOne({ _id: sid, expire: { $gt: now } }).lean<SessionRecord>();
    },
    /** Deletes one session; returns it when it existed. */
    remove(sid: string): Promise<SessionRecord | null> {
      return model.findOneAndDelete({ _id: sid }).lean<SessionRecord>();
    },
    /** Deletes every session of a user except `keep`; returns the deleted sids. */
    async removeAllOfUser(userId: string, keep?: string): Promise<string[]> {
      const filter = keep ? { 'sess.userId': userId, _id: { $ne: keep } } : { 'sess.userId': userId };
      const ids = (await model.find(filter, { _id: 1 }).lean<Array<{ _id: string }>>()).map((d) => d._id);
      if (ids.length > 0) await model.deleteMany({ _id: { $in: ids } });
      return ids;
    },
    async sweepExpired(now = new Date()): Promise<number> {
      const res = await model.deleteMany({ expire: { $lte: now } });
      return res.deletedCount;
    },
  };
}
export type SessionRepository = ReturnType<typeof createSessionRepository>;
