import { randomUUID } from 'node:crypto';
import { type EventEnvelope, subjects } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, consume, ensureStreams, type Nats } from '../src/nats';
import { testEnv, uniqueName } from '../src/testing';
import { captureLogger, waitFor } from './helpers';

const subject = subjects.playlistDeleted;
type Deleted = EventEnvelope<typeof subject>;

const env = testEnv();
const { logger, lines } = captureLogger();
const durable = uniqueName('kit-consume');
let nats: Nats;
let stop: (() => Promise<void>) | undefined;

const seen: Deleted[] = [];
const behaviour = new Map<string, (attempt: number) => Promise<void>>();

function envelope(): Deleted {
  return {
    id: randomUUID(),
    type: subject,
    occurredAt: new Date().toISOString(),
    data: { playlistId: `kit-test-${randomUUID()}`, ownerId: 'kit-test-owner', deletedAt: new Date().toISOString() },
  };
}
const publish = (e: Deleted) => nats.js.publish(subject, JSON.stringify(e), { msgID: e.id });
const attempts = (id: string) => seen.filter((e) => e.id === id).length;
const pending = async () => (await nats.jsm.consumers.info('FILES', durable)).num_ack_pending;
/** A later event, handled and acked: everything published before it has been delivered for the last time. */
async function passedBy(): Promise<void> {
  const later = envelope();
  await publish(later);
  await waitFor('a later event handled', () => attempts(later.id) === 1);
  await waitFor('a later event acked', async () => (await pending()) === 0);
}

beforeAll(async () => {
  nats = await connectNats(env.NATS_URL, logger, 'kit-consume-test');
  await ensureStreams(nats.jsm);
  const consumer = await consume(nats.js, {
    stream: 'FILES',
    durable,
    subjects: [subject],
    deliver: 'new',
    retryDelayMs: 200,
    logger,
    async handler(event) {
      seen.push(event);
      await behaviour.get(event.id)?.(attempts(event.id));
    },
  });
  stop = consumer.stop;
});
afterAll(async () => {
  await stop?.();
  await nats.jsm.consumers.delete('FILES', durable);
  await nats.nc.drain();
});

describe('consume (real JetStream, durable pull consumer)', () => {
  it('hands the handler the parsed envelope and acks only after the handler has finished', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const event = envelope();
    behaviour.set(event.id, () => gate);
    await publish(event);
    await waitFor('the handler to start', () => attempts(event.id) === 1);
    expect(seen.find((e) => e.id === event.id)).toEqual(event);
    // Still in the handler: the message is delivered but not acknowledged.
    expect(await pending()).toBeGreaterThanOrEqual(1);
    release();
    await waitFor('the ack', async () => (await pending()) === 0);
    expect(attempts(event.id)).toBe(1);
  });

  it('redelivers when the handler throws, then acks once it succeeds', async () => {
    const event = envelope();
    behaviour.set(event.id, async (attempt) => {
      if (attempt < 3) throw new Error(`temporary failure ${attempt}`);
    });
    await publish(event);
    await waitFor('the third attempt', () => attempts(event.id) === 3);
    await waitFor('the ack', async () => (await pending()) === 0);
    // acked: no fourth delivery. The consumer hands messages over in order, so once a later event has been handled
    // and acked, the first one is behind it for good (a positive fact to wait for, not a pause).
    await passedBy();
    expect(attempts(event.id)).toBe(3);
    expect(lines.some((l) => l.msg === 'handler failed; will retry' && l.eventId === event.id)).toBe(true);
  });

  it('terminates a bad message (not an event) without calling the handler or looping', async () => {
    const bad = await nats.js.publish(subject, '{"not":"an event"}', { msgID: randomUUID() });
    const terminated = () => lines.filter((l) => l.msg === 'bad message terminated' && l.seq === bad.seq);
    const good = envelope();
    await publish(good);
    // the consumer moves on past the bad message
    await waitFor('the next good event', () => attempts(good.id) === 1);
    expect(terminated()).toHaveLength(1);
    await waitFor('nothing pending', async () => (await pending()) === 0);
    await passedBy();
    expect(terminated()).toHaveLength(1);
    expect(attempts(good.id)).toBe(1);
  });
});
