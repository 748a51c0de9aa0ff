import type { ServiceName } from '@pagecast/contracts';
import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { parseWith } from './errors';
import type { Logger } from './logger';

/**
 * Test machinery, named in one place: the crash points of the fault tests (the process dies at that step, as with
 * kill -9) and the test clocks (a test sets or moves a service's time). All are off unless PAGECAST_FAILPOINTS turns
 * them on, which loadConfig refuses when NODE_ENV=production.
 */
interface FailpointDefinition {
  service: ServiceName;
  kind: 'crash' | 'clock';
  /** what the point stands for, for the reader of a fault test */
  simulates: string;
}

export const FAILPOINTS = {
  'billing.clock': {
    service: 'billing',
    kind: 'clock',
    simulates: 'a time the test sets (POST /internal/test/clock {at}, or context.clock.set): renewals, trial ends',
  },
  'billing.transfer-after-intent': {
    service: 'billing',
    kind: 'crash',
    simulates: 'billing dies after recording a transfer, before the buyer is charged',
  },
  'billing.transfer-after-buyer': {
    service: 'billing',
    kind: 'crash',
    simulates: 'billing dies after charging the buyer, before crediting the seller',
  },
  'billing.transfer-after-seller': {
    service: 'billing',
    kind: 'crash',
    simulates: 'billing dies after crediting the seller, before the platform fee',
  },
  'billing.renewal-after-charge': {
    service: 'billing',
    kind: 'crash',
    simulates: 'billing dies after charging a renewal, before the membership records it',
  },
  'marketplace.clock': {
    service: 'marketplace',
    kind: 'clock',
    simulates: 'time moved forward by the test (POST /internal/test/clock {ms}, which runs the jobs): licence expiry',
  },
  'screens.clock': {
    service: 'screens',
    kind: 'clock',
    simulates:
      'time moved by the test (POST /internal/test/clock {ms|at}, which sweeps incidents once): alert thresholds',
  },
  'screens.compaction-after-seal': {
    service: 'screens',
    kind: 'crash',
    simulates: "screens dies after sealing a day's rollups, before deleting its raw play records",
  },
  'screens.compaction-after-delete': {
    service: 'screens',
    kind: 'crash',
    simulates: "screens dies after deleting a day's raw play records, before marking the day done",
  },
  'marketplace.before-transfer': {
    service: 'marketplace',
    kind: 'crash',
    simulates: 'the marketplace dies after claiming a purchase, before asking billing for the transfer',
  },
  'marketplace.before-licence': {
    service: 'marketplace',
    kind: 'crash',
    simulates: 'the marketplace dies after the transfer, before recording the licence',
  },
  'marketplace.before-announce': {
    service: 'marketplace',
    kind: 'crash',
    simulates: 'the marketplace dies after recording the licence, before announcing the purchase',
  },
} as const satisfies Record<string, FailpointDefinition>;

export type FailpointName = keyof typeof FAILPOINTS;

/** The crash points of one service: what its use cases may pass to `failpoints.hit`. */
export type CrashPointOf<S extends ServiceName> = {
  [K in FailpointName]: (typeof FAILPOINTS)[K] extends { service: S; kind: 'crash' } ? K : never;
}[FailpointName];

/** PAGECAST_FAILPOINTS, parsed: the points turned on (crash points with their probability) and the seed. */
export interface FailpointSettings {
  /** the seed of the probabilistic points' draws (`seed=N`); undefined when not given */
  seed?: number;
  crash: ReadonlyMap<FailpointName, number>;
  clocks: ReadonlySet<FailpointName>;
}

export const NO_FAILPOINTS: FailpointSettings = { crash: new Map(), clocks: new Set() };

const isName = (name: string): name is FailpointName => Object.hasOwn(FAILPOINTS, name);

/**
 * Reads PAGECAST_FAILPOINTS: comma-separated entries, each `seed=<0..2^32-1>`, `<crash point>` or
 * `<crash point>=crash[@<probability 0..1>]` (default 1), `<clock>` or `<clock>=on`; e.g.
 * `seed=42,billing.clock,billing.renewal-after-charge=crash@0.5`. A service acts only on its own points; a name not
 * in FAILPOINTS is an error (a typo would otherwise test nothing). Throws an Error saying what is wrong.
 */
export function parseFailpoints(value: string | undefined): FailpointSettings {
  const crash = new Map<FailpointName, number>();
  const clocks = new Set<FailpointName>();
  let seed: number | undefined;
  for (const entry of (value ?? '').split(',').map((e) => e.trim())) {
    if (!entry) continue;
    const eq = entry.indexOf('=');
    const name = (eq < 0 ? entry : entry.slice(0, eq)).trim();
    const action = eq < 0 ? undefined : entry.slice(eq + 1).trim();
    if (name === 'seed') {
      const n = Number(action);
      if (!action || !Number.isInteger(n) || n < 0 || n > 0xffffffff) {
        throw new Error(`seed must be an integer from 0 to 4294967295, not "${action ?? ''}"`);
      }
      seed = n;
      continue;
    }
    if (!isName(name)) {
      throw new Error(`unknown failpoint "${name}" (known: ${Object.keys(FAILPOINTS).join(', ')})`);
    }
    if (FAILPOINTS[name].kind === 'clock') {
      if (action !== undefined && action !== 'on') throw new Error(`${name} takes no action but "on", not "${action}"`);
      clocks.add(name);
      continue;
    }
    const m = /^crash(?:@(.+))?$/.exec(action ?? 'crash');
    const p = m?.[1] === undefined ? 1 : Number(m[1]);
    if (!m || !(p >= 0 && p <= 1)) {
      throw new Error(`${name} takes "crash" or "crash@<probability from 0 to 1>", not "${action}"`);
    }
    crash.set(name, p);
  }
  return { seed, crash, clocks };
}

/** The zod field of PAGECAST_FAILPOINTS in the kit's base configuration (see config.ts). */
export const failpointsSetting = z
  .string()
  .optional()
  .transform((value, ctx) => {
    try {
      return parseFailpoints(value);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  });

/** True when the setting turns anything on (production refuses that). */
export const anyFailpoint = (s: FailpointSettings) => s.crash.size > 0 || s.clocks.size > 0 || s.seed !== undefined;

/** mulberry32: a small, fast pseudo-random generator; the same seed gives the same sequence in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Each point draws from its own sequence (seed and name mixed, FNV-1a), so turning on another point shifts none. */
function pointSeed(seed: number, name: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (const ch of name) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  return h;
}

/**
 * A service's time: real time, unless its test clock is on and a test set or moved it. The one clock of a service
 * (the runtime context's `clock`): every business time (a record's date, an expiry, a renewal, a heartbeat's age)
 * is read from it. Time that only measures real waiting stays on Date.now: a lease's expiry (the claims store
 * compares it with real time), a retry deadline, a duration logged.
 */
export interface Clock {
  now(): Date;
  /** now() in milliseconds since the epoch */
  ms(): number;
  /** Test clock only: the time stands at `at` from now on (null: real time again, any advance undone). */
  set(at: Date | null): void;
  /** Test clock only: moves the time forward by `ms` (it keeps running, or stays set). */
  advance(ms: number): void;
  /** whether set/advance may be used (the service's `<service>.clock` failpoint is on) */
  readonly adjustable: boolean;
}

/** The clock of `service`: adjustable when its `<service>.clock` failpoint is on (tests only). */
export function serviceClock(service: ServiceName, settings: FailpointSettings): Clock {
  const name = `${service}.clock`;
  return createClock(settings.clocks.has(name as FailpointName), name);
}

export function createClock(adjustable: boolean, name = 'the test clock'): Clock {
  let fixed: number | null = null;
  let offset = 0;
  const guard = () => {
    if (!adjustable) throw new Error(`the clock moves only in tests (PAGECAST_FAILPOINTS=${name})`);
  };
  return {
    adjustable,
    now: () => new Date((fixed ?? Date.now()) + offset),
    ms: () => (fixed ?? Date.now()) + offset,
    set(at) {
      guard();
      fixed = at ? at.getTime() : null;
      offset = 0;
    },
    advance(ms) {
      guard();
      offset += ms;
    },
  };
}

export interface Failpoints<S extends ServiceName> {
  /**
   * A crash point: when it is on (and its draw says so) the process dies here at once (SIGKILL: no close, no flush,
   * as with kill -9). Nothing happens when it is off, which is always the case in production.
   */
  hit(name: CrashPointOf<S>): void;
  /** the service's clock; adjustable when `<service>.clock` is on */
  clock: Clock;
  /** the seed of the draws, when any point of this service is probabilistic */
  seed: number | undefined;
}

/**
 * The failpoints of `service` from the parsed setting. Probabilistic points draw from a seeded sequence: the seed in
 * the setting (the test that sets it prints it), or one picked now and logged, so that a run can be replayed.
 */
export function createFailpoints<S extends ServiceName>(
  service: S,
  settings: FailpointSettings,
  logger?: Logger,
  /** the service's clock when it has one already (the runtime context's) */
  clock?: Clock,
): Failpoints<S> {
  const own = [...settings.crash].filter(([name]) => FAILPOINTS[name].service === service);
  const probabilistic = own.some(([, p]) => p > 0 && p < 1);
  let seed = settings.seed;
  if (probabilistic && seed === undefined) seed = Math.floor(Math.random() * 0x100000000);
  const draws = new Map(
    own.map(([name, p]) => [name, { p, random: seededRandom(pointSeed(seed ?? 0, name)) }] as const),
  );
  if (own.length > 0) {
    logger?.warn(
      { failpoints: Object.fromEntries(own), seed },
      probabilistic ? `crash points on (test only), seed=${seed} replays their draws` : 'crash points on (test only)',
    );
  }
  return {
    seed: probabilistic ? seed : undefined,
    clock: clock ?? serviceClock(service, settings),
    hit(name) {
      const point = draws.get(name);
      if (!point || point.p === 0) return;
      if (point.p === 1 || point.random() < point.p) process.kill(process.pid, 'SIGKILL');
    },
  };
}

const Move = z
  .object({
    /** the time to stand at (null: real time again) */
    at: z.iso.datetime().nullable().optional(),
    /** milliseconds to move forward */
    ms: z
      .number()
      .int()
      .min(0)
      .max(400 * 24 * 3600 * 1000)
      .optional(),
  })
  .refine((b) => (b.at === undefined) !== (b.ms === undefined), { message: 'give either at or ms' });

/**
 * Test only, mounted by a service when its clock is adjustable: `POST /internal/test/clock` with `{at}` (sets the
 * time) or `{ms}` (moves it forward) answers `{now}` plus what `afterMove` reports (the marketplace runs its jobs);
 * with `runJobs`, `POST /internal/test/run-jobs` runs the service's jobs now and answers what they did.
 */
export function testClockRouter(
  clock: Clock,
  hooks: { afterMove?: () => Promise<object>; runJobs?: () => Promise<unknown> } = {},
): Router {
  if (!clock.adjustable) throw new Error('testClockRouter needs an adjustable clock (a test-only failpoint)');
  const router = Router();
  router.post('/internal/test/clock', async (req: Request, res: Response) => {
    const move = parseWith(Move, req.body);
    if (move.ms !== undefined) clock.advance(move.ms);
    else clock.set(move.at ? new Date(move.at) : null);
    const after = (await hooks.afterMove?.()) ?? {};
    res.json({ now: clock.now().toISOString(), ...after });
  });
  const { runJobs } = hooks;
  if (runJobs) {
    router.post('/internal/test/run-jobs', async (_req: Request, res: Response) => {
      res.json(await runJobs());
    });
  }
  return router;
}
