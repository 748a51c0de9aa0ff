import { randomUUID } from 'node:crypto';
import { type EventData, type EventEnvelope, eventDataSchemas, type Subject } from '@pagecast/contracts';
import type { JetStreamClient } from '@nats-io/jetstream';
import mongoose from 'mongoose';
import type { pino } from 'pino';
import { isDuplicateKeyError } from './errors';

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
  { collection: 'outbox', versionKey: false, minimize: false },
);
// The relay's query (unsent, oldest first) and the clean-up of old sent entries both use this index.
outboxSchema.index({ sentAt: 1, occurredAt: 1 });

export const RELAY_INTERVAL_MS = 2000;
/** An entry this old and still unsent was left behind (crash, NATS down): the relay sends it. */
export const RELAY_AGE_MS = 5000;
/** Sent entries are kept this long for inspection, then removed (FerretDB has no TTL indexes). */
export const SENT_RETENTION_MS = 7 * 24 * 3600 * 1000;

export interface Outbox {
  /** Validates the data, stores the entry, publishes it (message id = event id) and marks it sent. */
  add<S extends Subject>(
    subject: S,
    data: EventData<S>,
    opts?: { id?: string; subjectSuffix?: string },
  ): Promise<EventEnvelope<S>>;
  /** One relay pass: publishes unsent entries older than RELAY_AGE_MS; returns how many were sent. */
  relayOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
  model: OutboxModel;
}

const defineModel = (conn: mongoose.Connection) => conn.model('outbox', outboxSchema);
export type OutboxModel = ReturnType<typeof defineModel>;

export function createOutbox(conn: mongoose.Connection, js: JetStreamClient, logger: pino.Logger): Outbox {
  const model = (conn.models.outbox as OutboxModel | undefined) ?? defineModel(conn);
  const log = logger.child({ component: 'outbox' });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  const envelopeOf = (e: OutboxEntry): EventEnvelope =>
    ({ id: e._id, type: e.subject as Subject, occurredAt: e.occurredAt.toISOString(), data: e.data }) as EventEnvelope;

  /** Publishes and marks sent. A duplicate ack (already stored within the window) also counts as sent. */
  const send = async (e: OutboxEntry): Promise<void> => {
    const ack = await js.publish(e.publishSubject ?? e.subject, JSON.stringify(envelopeOf(e)), { msgID: e._id });
    if (ack.duplicate) log.debug({ id: e._id }, 'already published');
    await model.updateOne({ _id: e._id }, { $set: { sentAt: new Date() } });
  };

  const relayOnce = async (): Promise<number> => {
    const due = await model
      .find({ sentAt: null, occurredAt: { $lt: new Date(Date.now() - RELAY_AGE_MS) } })
      .sort({ occurredAt: 1 })
      .limit(100)
      .lean<OutboxEntry[]>();
    let sent = 0;
    for (const e of due) {
      try {
        await send(e);
        sent++;
      } catch (err) {
        log.warn({ err, id: e._id, subject: e.subject }, 'relay could not publish; will retry');
        break; // NATS is likely down: try again next tick, in order
      }
    }
    if (sent) log.info({ sent }, 'relay published left-behind events');
    await model.deleteMany({ sentAt: { $lt: new Date(Date.now() - SENT_RETENTION_MS) } });
    return sent;
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
    relayOnce,
    async add<S extends Subject>(subject: S, data: EventData<S>, opts: { id?: string; subjectSuffix?: string } = {}) {
      const parsed = eventDataSchemas[subject].parse(data) as EventData<S>;
      const entry: OutboxEntry = {
        _id: opts.id ?? randomUUID(),
        subject,
        ...(opts.subjectSuffix ? { publishSubject: `${subject}.${opts.subjectSuffix}` } : {}),
        data: parsed,
        occurredAt: new Date(),
        sentAt: null,
      };
      let stored = entry;
      try {
        await model.create(entry);
      } catch (err) {
        // Same id again (an idempotent handler running twice): keep the first entry, send it if it is not yet.
        if (!isDuplicateKeyError(err)) throw err;
        const existing = await model.findById(entry._id).lean<OutboxEntry>();
        if (!existing) throw err;
        if (existing.subject !== subject)
          throw new Error(`outbox id ${entry._id} already used for ${existing.subject}`);
        stored = existing;
        if (existing.sentAt) return envelopeOf(existing) as EventEnvelope<S>;
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
