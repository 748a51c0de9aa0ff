// The stream publisher (stream-publisher.ts) on the real NATS: every message acknowledged before a call resolves,
// repeats answered as duplicates by id, a stream refusing part of a call, messages nobody acknowledges, and the
// bound on messages waiting for their acknowledgement.
import { randomUUID } from 'node:crypto';
import { DiscardPolicy, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStreamPublisher, StreamPublishError } from './stream-publisher';
import { testEnv } from './testing';

let nc: NatsConnection;
let jsm: JetStreamManager;
const name = `KIT_PUB_${randomUUID().slice(0, 8)}`;
const subject = `${name.toLowerCase()}.a`;
const encoder = new TextEncoder();
const messages = (n: number, ids = Array.from({ length: n }, () => randomUUID())) =>
  ids.map((msgId, i) => ({ subject, data: encoder.encode(`m${i}`), msgId }));

beforeAll(async () => {
  nc = await connect({ servers: testEnv().NATS_URL });
  jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name, subjects: [`${name.toLowerCase()}.*`], duplicate_window: 60_000_000_000 });
});
afterAll(async () => {
  await jsm.streams.delete(name).catch(() => undefined);
  await nc.close();
});

describe('stream publisher', () => {
  it('resolves once every message is stored, and answers a repeat of the same ids as duplicates', async () => {
    const publisher = createStreamPublisher(nc);
    const before = (await jsm.streams.info(name)).state.messages;
    const sent = messages(1000);
    const acks = await publisher.publishAll(sent);
    expect(acks).toHaveLength(1000);
    expect(acks.every((a) => !a.duplicate)).toBe(true);
    expect(new Set(acks.map((a) => a.seq)).size).toBe(1000);
    // in order: the stream's sequences follow the call's order
    expect(acks.map((a) => a.seq)).toEqual([...acks.map((a) => a.seq)].sort((a, b) => a - b));
    expect((await jsm.streams.info(name)).state.messages).toBe(before + 1000);

    const again = await publisher.publishAll([...sent.slice(0, 10), ...messages(5)]);
    expect(again.map((a) => a.duplicate)).toEqual([...Array(10).fill(true), ...Array(5).fill(false)]);
    expect(again.slice(0, 10).map((a) => a.seq)).toEqual(acks.slice(0, 10).map((a) => a.seq));
    expect((await jsm.streams.info(name)).state.messages).toBe(before + 1005);
    expect(publisher.pending()).toEqual({ messages: 0, calls: 0 });
    publisher.close();
  });

  it('throws when the stream refuses part of a call, after storing the rest; a resend stores only what is missing', async () => {
    const partial = `KIT_PART_${randomUUID().slice(0, 8)}`;
    const subj = `${partial.toLowerCase()}.a`;
    await jsm.streams.add({
      name: partial,
      subjects: [`${partial.toLowerCase()}.*`],
      duplicate_window: 60_000_000_000,
      max_msgs: 3,
      discard: DiscardPolicy.New,
    });
    try {
      const publisher = createStreamPublisher(nc);
      const sent = messages(5).map((m) => ({ ...m, subject: subj }));
      const err = await publisher.publishAll(sent).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StreamPublishError);
      expect((err as StreamPublishError).refused).toBe(2);
      expect((err as StreamPublishError).unanswered).toBe(0);
      expect((await jsm.streams.info(partial)).state.messages).toBe(3);
      await jsm.streams.update(partial, { max_msgs: -1 });
      const acks = await publisher.publishAll(sent);
      expect(acks.map((a) => a.duplicate)).toEqual([true, true, true, false, false]);
      expect((await jsm.streams.info(partial)).state.messages).toBe(5);
      publisher.close();
    } finally {
      await jsm.streams.delete(partial).catch(() => undefined);
    }
  });

  it('throws for messages no stream answers in time, and holds at most maxPending messages awaiting acks', async () => {
    // a plain subscriber where a stream would be: it takes the messages and never acknowledges them
    const silent = `kit-silent-${randomUUID().slice(0, 8)}`;
    const swallow = nc.subscribe(silent, { callback: () => {} });
    const publisher = createStreamPublisher(nc, { maxPending: 3, timeoutMs: 400 });
    try {
      const stuck = publisher.publishAll(messages(3).map((m) => ({ ...m, subject: silent })));
      await new Promise((r) => setTimeout(r, 50));
      expect(publisher.pending()).toEqual({ messages: 3, calls: 0 });
      // no room: this call waits behind the stuck one
      const waiting = publisher.publishAll(messages(1));
      await new Promise((r) => setTimeout(r, 50));
      expect(publisher.pending()).toEqual({ messages: 3, calls: 1 });
      const err = await stuck.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StreamPublishError);
      expect((err as StreamPublishError).unanswered).toBe(3);
      // the room freed, the waiting call went on and its message was stored
      const [ack] = await waiting;
      expect(ack?.duplicate).toBe(false);
      expect(publisher.pending()).toEqual({ messages: 0, calls: 0 });

      // a call that finds no room before its time is up stores nothing and says so
      const again = publisher.publishAll(
        messages(3).map((m) => ({ ...m, subject: silent })),
        { timeoutMs: 1500 },
      );
      await new Promise((r) => setTimeout(r, 20));
      const before = (await jsm.streams.info(name)).state.messages;
      const noRoom = await publisher.publishAll(messages(2)).catch((e: unknown) => e);
      expect(noRoom).toBeInstanceOf(StreamPublishError);
      expect((noRoom as StreamPublishError).unanswered).toBe(2);
      expect((await jsm.streams.info(name)).state.messages).toBe(before);
      await again.catch(() => undefined);
      expect(publisher.pending()).toEqual({ messages: 0, calls: 0 });
    } finally {
      swallow.unsubscribe();
      publisher.close();
    }
  });

  it('throws at once for a subject no stream holds (no responders)', async () => {
    const publisher = createStreamPublisher(nc, { timeoutMs: 5000 });
    const t0 = Date.now();
    const err = await publisher
      .publishAll(messages(2).map((m) => ({ ...m, subject: `kit-nobody-${randomUUID().slice(0, 8)}` })))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StreamPublishError);
    expect((err as StreamPublishError).refused).toBe(2);
    expect(Date.now() - t0).toBeLessThan(2000);
    publisher.close();
  });
});
