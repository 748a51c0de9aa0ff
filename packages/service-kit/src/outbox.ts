import { randomUUID } from 'node:crypto';
import { type EventData, type EventEnvelope, eventDataSchemas, type Subject } from '@pagecast/contracts';
import type { JetStreamClient } from '@nats-io/jetstream';
import mongoose from 'mongoose';
import type { pino } from 'pino';
import { isDuplicateKeyError, onlyDuplicateKeys } from './errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OutboxEntry {
  _id: string;
  subject: string;
  /** Where it is published when that differs from the event type (a partition of a work queue). */
  publishSubject?: string;
  data: unknown;
  occurredAt: Date;
  sentAt: Date | null;
}

const outboxSchema = new mongoose.Schema<OutboxEntry>(
  {
    _id: { type: String, required: true },
    subject: { type: String, required: true },
    publishSubject: { type: String },
    data: { type: mongoose.Schema.Types.Mixed, required: true },
    occurredAt: { type: Date, required: true },
    sentAt: { type: Date, default: null },
  },
  { versionKey: false, minimize: false },
);
// The relay's query (unsent, oldest first), and in the sent collection the clean-up of old entries.
outboxSchema.index({ sentAt: 1, occurredAt: 1 });

export const RELAY_INTERVAL_MS = 2000;
/** An entry this old and still unsent was left behind (crash, NATS down): the relay sends it. */
export const RELAY_AGE_MS = 5000;
/** Sent entries are kept this long for inspection, then removed (FerretDB has no TTL indexes). */
export const SENT_RETENTION_MS = 7 * 24 * 3600 * 1000;
/** How often the sent entries past retention are removed: a scan of the sent collection, so not every pass. */
export const SENT_CLEANUP_INTERVAL_MS = 3600 * 1000;

export interface Outbox {
  /** Validates the data, stores the entry, publishes it (message id = event id) and files it as sent. */
  add<S extends Subject>(
    subject: S,
    data: EventData<S>,
    opts?: { id?: string; subjectSuffix?: string },
  ): Promise<EventEnvelope<S>>;
  /** One relay pass: publishes unsent entries older than RELAY_AGE_MS; returns how many were sent. */
  relayOnce(): Promise<number>;
  /** Entries matching `filter`, unsent and sent alike (inspection and tests). */
  entries(filter?: mongoose.QueryFilter<OutboxEntry>): Promise<OutboxEntry[]>;
  start(): void;
  stop(): Promise<void>;
  /** The unsent entries (collection `outbox`). */
  model: OutboxModel;
  /** The sent ones, kept SENT_RETENTION_MS (collection `outbox_sent`). */
  sent: OutboxModel;
}

const defineModel = (conn: mongoose.Connection) => conn.model('outbox', outboxSchema, 'outbox');
const defineSentModel = (conn: mongoose.Connection) => conn.model('outbox_sent', outboxSchema, 'outbox_sent');
export type OutboxModel = ReturnType<typeof defineModel>;

/**
 * Events stored beside the change that causes them, then published; the relay publishes what a crash or a NATS
 * outage left behind. A sent entry moves to `outbox_sent`, so `outbox` holds only the unsent ones: FerretDB answers
 * any query but an `_id` lookup by scanning the collection, and the relay queries every RELAY_INTERVAL_MS in every
 * replica. With sent entries kept in place, a pass over a week's 2,212 entries cost FerretDB 200 ms of CPU (100 ms
 * per second per service, idle), growing with the traffic; now a pass reads a handful of documents.
 */
export function createOutbox(conn: mongoose.Connection, js: JetStreamClient, logger: pino.Logger): Outbox {
  const model = (conn.models.outbox as OutboxModel | undefined) ?? defineModel(conn);
  const sent = (conn.models.outbox_sent as OutboxModel | undefined) ?? defineSentModel(conn);
  const log = logger.child({ component: 'outbox' });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let cleanedAt = 0;
  let moved = false;

  const envelopeOf = (e: OutboxEntry): EventEnvelope =>
    ({ id: e._id, type: e.subject as Subject, occurredAt: e.occurredAt.toISOString(), data: e.data }) as EventEnvelope;

  /** Copies entries to `outbox_sent`; a copy already there stands (a crash between the copy and the removal from
   * `outbox`, or two replicas sending the same entry). */
  const copyToSent = async (entries: OutboxEntry[]): Promise<void> => {
    try {
      await sent.collection.insertMany(entries as never[], { ordered: false });
    } catch (err) {
      if (!onlyDuplicateKeys(err)) throw err;
    }
  };

  /** Publishes and files as sent. A duplicate ack (already stored within the window) also counts as sent. */
  const send = async (e: OutboxEntry): Promise<void> => {
    const ack = await js.publish(e.publishSubject ?? e.subject, JSON.stringify(envelopeOf(e)), { msgID: e._id });
    if (ack.duplicate) log.debug({ id: e._id }, 'already published');
    await copyToSent([{ ...e, sentAt: new Date() }]);
    await model.deleteOne({ _id: e._id });
  };

  /**
   * Once per process: entries written before `outbox_sent` existed were marked sent in place. They are copied in
   * batches from one pass over the collection, then removed by one delete (a delete by ids scans on FerretDB too,
   * so a delete per batch would scan once per batch).
   */
  const moveSentInPlace = async (): Promise<void> => {
    const cutoff = new Date();
    const old = { sentAt: { $ne: null, $lte: cutoff } };
    let batch: OutboxEntry[] = [];
    let copied = 0;
    const copy = async () => {
      if (batch.length === 0) return;
      await copyToSent(batch);
      copied += batch.length;
      batch = [];
    };
    for await (const e of model.find(old).lean<OutboxEntry[]>().cursor()) {
      batch.push(e as OutboxEntry);
      if (batch.length >= 500) await copy();
    }
    await copy();
    if (copied === 0) return;
    await model.deleteMany(old);
    log.info({ moved: copied }, 'moved sent entries to outbox_sent');
  };

  const relayOnce = async (): Promise<number> => {
    if (!moved) {
      await moveSentInPlace();
      moved = true;
    }
    const due = await model
      .find({ occurredAt: { $lt: new Date(Date.now() - RELAY_AGE_MS) } })
      .sort({ occurredAt: 1 })
      .limit(100)
      .lean<OutboxEntry[]>();
    let count = 0;
    for (const e of due) {
      try {
        await send(e);
        count++;
      } catch (err) {
        log.warn({ err, id: e._id, subject: e.subject }, 'relay could not publish; will retry');
        break; // NATS is likely down: try again next tick, in order
      }
    }
    if (count) log.info({ sent: count }, 'relay published left-behind events');
    if (Date.now() - cleanedAt >= SENT_CLEANUP_INTERVAL_MS) {
      await sent.deleteMany({ sentAt: { $lt: new Date(Date.now() - SENT_RETENTION_MS) } });
      cleanedAt = Date.now();
    }
    return count;
  };

  const tick = () => {
    if (running) return;
    running = relayOnce()
      .catch((err) => {
        log.warn({ err }, 'relay pass failed');
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
  };

  return {
    model,
    sent,
    relayOnce,
    async entries(filter = {}) {
      const [unsent, done] = await Promise.all([
        model.find(filter).lean<OutboxEntry[]>(),
        sent.find(filter).lean<OutboxEntry[]>(),
      ]);
      // An entry caught between its copy and its removal is in both: the sent copy counts.
      const sentIds = new Set(done.map((e) => e._id));
      return [...unsent.filter((e) => !sentIds.has(e._id)), ...done];
    },
    async add<S extends Subject>(subject: S, data: EventData<S>, opts: { id?: string; subjectSuffix?: string } = {}) {
      const parsed = eventDataSchemas[subject].parse(data) as EventData<S>;
      // an envelope's id is a UUID (every consumer's parseEvent refuses another): a chosen id that is not one would be
      // published and then dropped by every reader, so it fails here, in the test that first writes it
      if (opts.id !== undefined && !UUID.test(opts.id))
        throw new Error(`outbox id ${opts.id} is not a UUID (nameUuid)`);
      const entry: OutboxEntry = {
        _id: opts.id ?? randomUUID(),
        subject,
        ...(opts.subjectSuffix ? { publishSubject: `${subject}.${opts.subjectSuffix}` } : {}),
        data: parsed,
        occurredAt: new Date(),
        sentAt: null,
      };
      const sameSubject = (existing: OutboxEntry) => {
        if (existing.subject !== subject)
          throw new Error(`outbox id ${entry._id} already used for ${existing.subject}`);
        return existing;
      };
      // A chosen id may have been sent already (an idempotent handler running twice): answer that event again.
      // A random one cannot have been.
      if (opts.id) {
        const done = await sent.findById(entry._id).lean<OutboxEntry>();
        if (done) return envelopeOf(sameSubject(done)) as EventEnvelope<S>;
      }
      let stored = entry;
      try {
        await model.create(entry);
      } catch (err) {
        // Same id, still unsent: keep the first entry and send it.
        if (!isDuplicateKeyError(err)) throw err;
        const existing = await model.findById(entry._id).lean<OutboxEntry>();
        if (!existing) {
          // sent and moved to outbox_sent between our insert and this read (two settlers of one purchase): the same
          // event, already on its way; failing here would answer a change that stands as a conflict
          const done = await sent.findById(entry._id).lean<OutboxEntry>();
          if (done) return envelopeOf(sameSubject(done)) as EventEnvelope<S>;
          throw err;
        }
        stored = sameSubject(existing);
      }
      try {
        await send(stored);
      } catch (err) {
        // Stored durably: the relay publishes it later. The caller's change stands.
        log.warn({ err, id: stored._id, subject }, 'publish failed; the relay will retry');
      }
      return envelopeOf(stored) as EventEnvelope<S>;
    },
    start() {
      if (timer) return;
      timer = setInterval(tick, RELAY_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
