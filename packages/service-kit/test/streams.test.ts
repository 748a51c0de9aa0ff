import { streams } from '@pagecast/contracts';
import { RetentionPolicy } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, ensureStreams, type Nats, natsReady } from '../src/nats';
import { testEnv, uniqueName } from '../src/testing';
import { captureLogger } from './helpers';

const env = testEnv();
const { logger } = captureLogger();
let nats: Nats;
const name = uniqueName('KIT').replace(/-/g, '_').toUpperCase();
const token = name.toLowerCase();

beforeAll(async () => {
  nats = await connectNats(env.NATS_URL, logger, 'kit-streams-test');
});
afterAll(async () => {
  await nats.jsm.streams.delete(name).catch(() => undefined);
  await nats.nc.drain();
  expect(natsReady(nats.nc)).toBe(false);
});

describe('ensureStreams (real JetStream)', () => {
  it('creates every contract stream with its subjects, retention, 2-minute duplicate window and age limit', async () => {
    expect(natsReady(nats.nc)).toBe(true);
    await ensureStreams(nats.jsm);
    for (const def of streams) {
      const info = await nats.jsm.streams.info(def.name);
      expect([...info.config.subjects].sort()).toEqual([...def.subjects].sort());
      expect(info.config.duplicate_window).toBe(nanos(def.duplicateWindowMs));
      expect(info.config.max_age).toBe(nanos(def.maxAgeMs));
      expect(def.maxAgeMs).toBeGreaterThan(0); // 0 is JetStream's "no limit"
      expect(info.config.retention).toBe(
        def.retention === 'workqueue' ? RetentionPolicy.Workqueue : RetentionPolicy.Limits,
      );
    }
  });

  it('creates a missing stream, survives concurrent callers and updates subjects, window and age limit in place', async () => {
    const def = {
      name,
      subjects: [`${token}.a.>`],
      retention: 'limits' as const,
      duplicateWindowMs: 60_000,
      maxAgeMs: 3_600_000,
    };
    await Promise.all([ensureStreams(nats.jsm, [def]), ensureStreams(nats.jsm, [def])]);
    const created = await nats.jsm.streams.info(name);
    expect(created.config.duplicate_window).toBe(nanos(60_000));
    expect(created.config.max_age).toBe(nanos(3_600_000));
    await nats.js.publish(`${token}.a.x`, 'kept');

    await ensureStreams(nats.jsm, [
      { ...def, subjects: [`${token}.a.>`, `${token}.b.>`], duplicateWindowMs: 90_000, maxAgeMs: 7_200_000 },
    ]);
    const updated = await nats.jsm.streams.info(name);
    expect([...updated.config.subjects].sort()).toEqual([`${token}.a.>`, `${token}.b.>`]);
    expect(updated.config.duplicate_window).toBe(nanos(90_000));
    expect(updated.config.max_age).toBe(nanos(7_200_000));
    expect(updated.state.messages).toBe(1); // updated, not recreated
  });
});
