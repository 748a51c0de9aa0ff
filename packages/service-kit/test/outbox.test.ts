import { randomUUID } from 'node:crypto';
import { type EventEnvelope, subjects } from '@pagecast/contracts';
import { DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import type mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo } from '../src/mongo';
import { connectNats, ensureStreams, type Nats } from '../src/nats';
import { createOutbox, type Outbox, RELAY_AGE_MS } from '../src/outbox';
import { testEnv, uniqueName } from '../src/testing';
import { captureLogger, waitFor } from './helpers';

// A real subject (the envelope is validated); ids are unique per run so other runs' messages are ignored.
const subject = subjects.playlistDeleted;
const data = () => ({
  playlistId: `kit-test-${randomUUID()}`,
  ownerId: 'kit-test-owner',
  deletedAt: new Date().toISOString(),
});

const env = testEnv();
const { logger } = captureLogger();
const startedAt = new Date(Date.now() - 1000);
let conn: mongoose.Connection;
let nats: Nats;
let outbox: Outbox;

/** Every message on the subject since this file started, as (message id → envelopes stored under it). */
async function storedById(): Promise<Map<string, EventEnvelope[]>> {
  const consumer = await nats.js.consumers.get('FILES', {
    filter_subjects: [subject],
    deliver_policy: DeliverPolicy.StartTime,
    opt_start_time: startedAt.toISOString(),
  });
  const byId = new Map<string, EventEnvelope[]>();
  const iter = await consumer.fetch({ max_messages: 1000, expires: 1500 });
  for await (const m of iter as AsyncIterable<JsMsg>) {
    const id = m.headers?.get('Nats-Msg-Id') ?? '';
    byId.set(id, [...(byId.get(id) ?? []), m.json<EventEnvelope>()]);
  }
  return byId;
}

beforeAll(async () => {
  conn = await connectMongo(env.MONGO_URL, uniqueName('kit_outbox'), logger);
  nats = await connectNats(env.NATS_URL, logger, 'kit-outbox-test');
  await ensureStreams(nats.jsm);
  outbox = createOutbox(conn, nats.js, logger);
});
afterAll(async () => {
  await outbox.stop();
  await conn.dropDatabase();
  await conn.close();
  await nats.nc.drain();
});

describe('outbox (real FerretDB + JetStream)', () => {
  it('add() stores the entry, publishes the envelope with its id as message id and files it as sent', async () => {
    const payload = data();
    const event = await outbox.add(subject, payload);
    expect(event).toMatchObject({ type: subject, data: payload });
    // sent entries leave the relay's collection
    expect(await outbox.model.findById(event.id).lean()).toBeNull();
    const entry = await outbox.sent.findById(event.id).lean();
    expect(entry?.sentAt).toBeInstanceOf(Date);
    expect(entry?.data).toEqual(payload);
    const stored = await storedById();
    expect(stored.get(event.id)).toEqual([event]);
  });

  it('add() refuses data that does not match the event schema and stores nothing', async () => {
    const id = randomUUID();
    await expect(outbox.add(subject, { playlistId: 1 } as never, { id })).rejects.toThrow();
    expect(await outbox.entries({ _id: id })).toEqual([]);
  });

  it('add() refuses a chosen id that is not a UUID (every reader would drop the envelope) and stores nothing', async () => {
    const id = `change-1:${randomUUID()}`;
    await expect(outbox.add(subject, data(), { id })).rejects.toThrow(/not a UUID/);
    expect(await outbox.entries({ _id: id })).toEqual([]);
  });

  it('publishing the same id twice stores one message (JetStream de-duplication)', async () => {
    const event = await outbox.add(subject, data());
    // Simulate a crash after publish but before the entry was filed as sent: the relay publishes it again.
    const filed = await outbox.sent.findById(event.id).lean();
    await outbox.sent.deleteOne({ _id: event.id });
    await outbox.model.create({ ...filed, sentAt: null, occurredAt: new Date(Date.now() - RELAY_AGE_MS - 1000) });
    expect(await outbox.relayOnce()).toBeGreaterThanOrEqual(1);
    expect(await outbox.model.findById(event.id).lean()).toBeNull();
    expect((await outbox.sent.findById(event.id).lean())?.sentAt).toBeInstanceOf(Date);
    const stored = await storedById();
    expect(stored.get(event.id)).toHaveLength(1);
  });

  it('a crash between filing the copy and removing the entry: the relay sends it once more and one copy stays', async () => {
    const event = await outbox.add(subject, data());
    const filed = await outbox.sent.findById(event.id).lean();
    await outbox.model.create({ ...filed, sentAt: null, occurredAt: new Date(Date.now() - RELAY_AGE_MS - 1000) });
    expect(await outbox.entries({ _id: event.id })).toHaveLength(1);
    await outbox.relayOnce();
    expect(await outbox.model.countDocuments({ _id: event.id })).toBe(0);
    expect(await outbox.sent.countDocuments({ _id: event.id })).toBe(1);
    expect((await storedById()).get(event.id)).toHaveLength(1);
  });

  it('entries marked sent in place (before outbox_sent) move there on the first pass; unsent ones stay', async () => {
    const dbConn = await connectMongo(env.MONGO_URL, uniqueName('kit_outbox_move'), logger);
    try {
      const old = createOutbox(dbConn, nats.js, logger);
      const at = new Date();
      const sentInPlace = Array.from({ length: 1203 }, (_, i) => ({
        _id: `old-${i}`,
        subject,
        data: data(),
        occurredAt: at,
        sentAt: at,
      }));
      await old.model.collection.insertMany(sentInPlace as never[]);
      // fresh and unsent: its writer is still sending it, so it stays where it is
      await old.model.create({ _id: 'fresh', subject, data: data(), occurredAt: new Date(), sentAt: null });
      expect(await old.relayOnce()).toBe(0);
      expect((await old.model.find({}, { _id: 1 }).lean()).map((e) => e._id)).toEqual(['fresh']);
      expect(await old.sent.countDocuments({})).toBe(1203);
      expect(await old.entries({})).toHaveLength(1204);
    } finally {
      await dbConn.dropDatabase();
      await dbConn.close();
    }
  });

  it('add() with an id already sent does not publish again', async () => {
    const id = randomUUID();
    const first = await outbox.add(subject, data(), { id });
    const again = await outbox.add(subject, data(), { id });
    expect(again).toEqual(first);
    expect((await storedById()).get(id)).toHaveLength(1);
  });

  it('two add() of one id at once (two settlers of one purchase) both answer the one event, however they interleave', async () => {
    // one of each pair may find the other's entry moved to outbox_sent between its refused insert and its read
    const events = Array.from({ length: 40 }, () => ({ id: randomUUID(), payload: data() }));
    const ids = events.map((e) => e.id);
    const results = await Promise.allSettled(
      events.flatMap(({ id, payload }) => [outbox.add(subject, payload, { id }), outbox.add(subject, payload, { id })]),
    );
    expect(results.filter((r) => r.status === 'rejected').map((r) => String(r.reason))).toEqual([]);
    const stored = await storedById();
    for (const id of ids) expect(stored.get(id)).toHaveLength(1);
  });

  it('when NATS is unreachable, add() keeps the entry unsent and the relay (start) publishes it later', async () => {
    const dead = await connectNats(env.NATS_URL, logger, 'kit-outbox-dead');
    await dead.nc.close();
    const offline = createOutbox(conn, dead.js, logger);
    const payload = data();
    const event = await offline.add(subject, payload);
    expect((await outbox.model.findById(event.id).lean())?.sentAt).toBeNull();
    expect(await outbox.sent.findById(event.id).lean()).toBeNull();
    expect((await storedById()).has(event.id)).toBe(false);

    // A fresh entry is left to its writer; only one older than RELAY_AGE_MS is relayed.
    await outbox.relayOnce();
    expect((await outbox.model.findById(event.id).lean())?.sentAt).toBeNull();

    await outbox.model.updateOne(
      { _id: event.id },
      { $set: { occurredAt: new Date(Date.now() - RELAY_AGE_MS - 1000) } },
    );
    outbox.start();
    await waitFor(
      'the relay to send the entry',
      async () => (await outbox.sent.findById(event.id).lean())?.sentAt,
      8000,
    );
    expect(await outbox.model.findById(event.id).lean()).toBeNull();
    const stored = (await storedById()).get(event.id);
    expect(stored).toHaveLength(1);
    // occurredAt was back-dated above to make the entry due
    expect(stored?.[0]).toMatchObject({ id: event.id, type: subject, data: payload });
  });
});
