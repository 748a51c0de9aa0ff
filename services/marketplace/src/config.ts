import { ConfigError, loadConfig } from '@pagecast/service-kit';
import { z } from 'zod';

/** Variables of this service on top of the kit's base (docs/platform.md); PORT overrides the default. */
export const configSchema = {
  PORT: z.coerce.number().int().min(0).max(65535).default(4103),
  /** billing's internal base URL, for the transfer call (packages/contracts api/transfers.ts) */
  BILLING_URL: z.string().url().default('http://127.0.0.1:4104'),
  /** Prefix of the read models' durable consumer names (tests use their own). */
  CONSUMER_PREFIX: z.string().min(1).default('marketplace'),
  /** Where a new read-model durable starts: the whole history ('all': rebuilds an empty database) or 'new' (tests). */
  EVENTS_DELIVER: z.enum(['all', 'new']).default('all'),
  /** A purchase still pending after this long was left by a crash: the sweeper finishes or abandons it. */
  PURCHASE_SWEEP_AFTER_MS: z.coerce.number().int().min(100).default(30_000),
  /** How often the sweeper and the licence expiry job run. */
  JOBS_INTERVAL_MS: z.coerce.number().int().min(50).default(5_000),
  /**
   * Test only: `POST /internal/test/clock` moves this service's clock forward (licence expiry in tests). Refused
   * at start when NODE_ENV is production.
   */
  TEST_CLOCK: z.stringbool().default(false),
  /** Test only (fault tests): the process exits at once (as kill -9 would) at this step of a purchase. */
  CRASH_POINT: z.enum(['before-transfer', 'before-licence', 'before-announce']).optional(),
};

/** Throws a ConfigError naming every missing or bad variable. */
export function loadServiceConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(configSchema, env);
  if (env.NODE_ENV === 'production' && (config.TEST_CLOCK || config.CRASH_POINT)) {
    throw new ConfigError('TEST_CLOCK and CRASH_POINT are test-only and refused when NODE_ENV=production');
  }
  return config;
}

export type Config = ReturnType<typeof loadServiceConfig>;
