import { loadConfig } from '@pagecast/service-kit';
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
};

/**
 * Throws a ConfigError naming every missing or bad variable. The test clock and the crash points are the kit's
 * failpoints (PAGECAST_FAILPOINTS, refused when NODE_ENV=production).
 */
export function loadServiceConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(configSchema, env);
}

export type Config = ReturnType<typeof loadServiceConfig>;
