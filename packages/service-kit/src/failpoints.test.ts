import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { createClock, createFailpoints, FAILPOINTS, parseFailpoints, seededRandom } from './failpoints';

const secret = 'k'.repeat(32);

describe('PAGECAST_FAILPOINTS', () => {
  it('turns on nothing by default', () => {
    const { PAGECAST_FAILPOINTS: s } = loadConfig({}, { INTERNAL_SECRET: secret });
    expect([s.crash.size, s.clocks.size, s.seed]).toEqual([0, 0, undefined]);
  });

  it('reads crash points with their probability (default 1), clocks and the seed', () => {
    const s = parseFailpoints(
      ' seed=42, billing.clock,billing.renewal-after-charge=crash@0.5 ,marketplace.before-licence,marketplace.clock=on,' +
        'billing.transfer-after-buyer=crash',
    );
    expect(s.seed).toBe(42);
    expect([...s.clocks].sort()).toEqual(['billing.clock', 'marketplace.clock']);
    expect(Object.fromEntries(s.crash)).toEqual({
      'billing.renewal-after-charge': 0.5,
      'marketplace.before-licence': 1,
      'billing.transfer-after-buyer': 1,
    });
  });

  it.each([
    ['billing.renewal-after-charg', /unknown failpoint "billing.renewal-after-charg"/],
    ['billing.renewal-after-charge=crash@1.5', /crash@<probability from 0 to 1>/],
    ['billing.renewal-after-charge=crash@x', /crash@<probability from 0 to 1>/],
    ['billing.renewal-after-charge=on', /crash@<probability from 0 to 1>/],
    ['billing.clock=crash', /takes no action but "on"/],
    ['seed=-1', /seed must be an integer/],
    ['seed=1.5', /seed must be an integer/],
    ['seed=', /seed must be an integer/],
  ])('refuses %s with a ConfigError naming the variable', (value, message) => {
    expect(() => loadConfig({}, { INTERNAL_SECRET: secret, PAGECAST_FAILPOINTS: value })).toThrow(ConfigError);
    expect(() => loadConfig({}, { INTERNAL_SECRET: secret, PAGECAST_FAILPOINTS: value })).toThrow(
      /PAGECAST_FAILPOINTS: /,
    );
    expect(() => parseFailpoints(value)).toThrow(message);
  });

  it.each(['billing.clock', 'marketplace.before-transfer', 'seed=3'])(
    'is refused when NODE_ENV=production: %s',
    (value) => {
      expect(() =>
        loadConfig({}, { INTERNAL_SECRET: secret, NODE_ENV: 'production', PAGECAST_FAILPOINTS: value }),
      ).toThrow(/PAGECAST_FAILPOINTS is test-only and refused when NODE_ENV=production/);
      // the same setting is accepted in tests
      expect(loadConfig({}, { INTERNAL_SECRET: secret, NODE_ENV: 'test', PAGECAST_FAILPOINTS: value })).toBeTruthy();
    },
  );

  it('lists every failpoint once, each with its service, kind and what it simulates', () => {
    for (const [name, point] of Object.entries(FAILPOINTS)) {
      expect(name.startsWith(`${point.service}.`), name).toBe(true);
      expect(['crash', 'clock']).toContain(point.kind);
      expect(point.simulates.length, name).toBeGreaterThan(20);
    }
  });
});

describe('the seeded random source', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const draw = (seed: number) => Array.from({ length: 8 }, seededRandom(seed));
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    for (const x of draw(123)) expect(x >= 0 && x < 1).toBe(true);
  });

  it('uses the given seed, or picks one when a point is probabilistic, and none for certain points', () => {
    expect(createFailpoints('billing', parseFailpoints('seed=9,billing.transfer-after-buyer=crash@0.3')).seed).toBe(9);
    const picked = createFailpoints('billing', parseFailpoints('billing.transfer-after-buyer=crash@0.3')).seed;
    expect(Number.isInteger(picked)).toBe(true);
    expect(createFailpoints('billing', parseFailpoints('billing.transfer-after-buyer')).seed).toBeUndefined();
    // another service's probabilistic point is not this one's
    expect(createFailpoints('marketplace', parseFailpoints('billing.transfer-after-buyer=crash@0.3')).seed).toBe(
      undefined,
    );
  });
});

describe('the clock', () => {
  it('is real time and cannot be moved unless its failpoint is on', () => {
    const clock = createFailpoints('billing', parseFailpoints('marketplace.clock')).clock;
    expect(clock.adjustable).toBe(false);
    const before = Date.now();
    const now = clock.now().getTime();
    expect(now >= before && now <= Date.now()).toBe(true);
    expect(() => clock.set(new Date('2040-01-01T00:00:00Z'))).toThrow(/PAGECAST_FAILPOINTS=billing.clock/);
    expect(() => clock.advance(1000)).toThrow(/only in tests/);
  });

  it('stands where it is set, moves forward by advance, and runs on from an advance of real time', () => {
    const clock = createFailpoints('marketplace', parseFailpoints('marketplace.clock')).clock;
    expect(clock.adjustable).toBe(true);
    clock.set(new Date('2040-01-01T00:00:00Z'));
    expect(clock.now().toISOString()).toBe('2040-01-01T00:00:00.000Z');
    clock.advance(86_400_000);
    expect(clock.now().toISOString()).toBe('2040-01-02T00:00:00.000Z');
    clock.set(null);
    const day = 86_400_000;
    clock.advance(day);
    const before = Date.now();
    const now = clock.now().getTime() - day;
    expect(now >= before && now <= Date.now()).toBe(true);
    expect(createClock(false).adjustable).toBe(false);
  });
});
