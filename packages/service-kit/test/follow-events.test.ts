import { randomUUID } from 'node:crypto';
import { type EventEnvelope, type Subject, subjects } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followEvents } from '../src/follow-events';
import { eventRoutes } from '../src/event-routes';
import { connectNats, ensureStreams, type Nats } from '../src/nats';
import { testEnv } from '../src/testing';
import { captureLogger, waitFor } from './helpers';

const subject = subjects.playlistDeleted;
const env = testEnv();
const { logger, lines } = captureLogger();
let a: Nats;
let b: Nats;

const envelope = (): EventEnvelope<typeof subject> => ({
  id: randomUUID(),
  type: subject,
  occurredAt: new Date().toISOString(),
  data: { playlistId: `kit-follow-${randomUUID()}`, ownerId: 'kit-follow-owner', deletedAt: new Date().toISOString() },
});

beforeAll(async () => {
  a = await connectNats(env.NATS_URL, logger, 'kit-follow-a');
  b = await connectNats(env.NATS_URL, logger, 'kit-follow-b');
  await ensureStreams(a.jsm);
});
afterAll(async () => {
  await a?.nc.drain();
  await b?.nc.drain();
});

describe('followEvents', () => {
  it('every instance hears a JetStream publish of its subjects, parsed; other messages are ignored', async () => {
    const heardA: string[] = [];
    const heardB: string[] = [];
    // a subject no stream captures: a core publish to a stream's subject would land in the shared FILES stream
    const junk = `kit-follow-junk.${randomUUID()}` as Subject;
    const fa = followEvents(a, { subjects: [subject, junk], handler: (e) => heardA.push(e.id) });
    const fb = followEvents(b, { subjects: [subject], handler: (e) => heardB.push(e.id) });
    await Promise.all([a.nc.flush(), b.nc.flush()]);
    const first = envelope();
    a.nc.publish(junk, 'not an event');
    a.nc.publish(junk, JSON.stringify({ id: 'x', type: subject, data: {} })); // an envelope that does not parse
    await a.js.publish(subject, JSON.stringify(first), { msgID: first.id });
    await waitFor('both instances heard it', () => heardA.includes(first.id) && heardB.includes(first.id));
    expect(heardA).toEqual([first.id]);
    expect(heardB).toEqual([first.id]);

    fb.stop();
    const second = envelope();
    await a.js.publish(subject, JSON.stringify(second), { msgID: second.id });
    await waitFor('instance a heard the second', () => heardA.includes(second.id));
    await b.nc.flush();
    expect(heardB).toEqual([first.id]); // stopped: no more
    fa.stop();
  });

  it('a route that fails (a throw, or a rejection) is logged and the next event is still applied', async () => {
    const applied: string[] = [];
    const bad = envelope();
    const good = envelope();
    const routes = eventRoutes().on(subject, async (data, e) => {
      if (e.id === bad.id) throw new Error('boom');
      applied.push(`${e.id}:${data.playlistId}`);
    });
    const f = followEvents(a, routes, { logger });
    await a.nc.flush();
    await a.js.publish(subject, JSON.stringify(bad), { msgID: bad.id });
    await a.js.publish(subject, JSON.stringify(good), { msgID: good.id });
    await waitFor('the good one applied', () => applied.includes(`${good.id}:${good.data.playlistId}`));
    expect(lines.some((l) => l.msg === 'followed event not applied' && l.eventId === bad.id)).toBe(true);
    f.stop();
  });

  it('a lost connection counts a gap and calls onGap when it comes back', async () => {
    let called = 0;
    const f = followEvents(b, { subjects: [subject], handler: () => {} }, { onGap: () => called++ });
    expect(f.gaps).toBe(0);
    await b.nc.reconnect();
    await waitFor('the gap seen', () => called === 1 && f.gaps === 1);
    // and it still hears events after it
    const heard: string[] = [];
    const g = followEvents(b, { subjects: [subject], handler: (e) => heard.push(e.id) });
    await b.nc.flush();
    const after = envelope();
    await a.js.publish(subject, JSON.stringify(after), { msgID: after.id });
    await waitFor('heard after the reconnect', () => heard.includes(after.id));
    f.stop();
    g.stop();
  });
});
