import { loadConfig } from '@pagecast/service-kit';
import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

/** Variables of this service on top of the kit's base (docs/platform.md); PORT overrides the default. */
export const configSchema = {
  PORT: z.coerce.number().int().min(0).max(65535).default(4104),
  /** Card provider's secret key; unset = card payments disabled (the dialog shows the configuration error). */
  STRIPE_SECRET_KEY: optionalString,
  /** Given to the browser for Stripe.js; unset = card payments disabled. */
  STRIPE_PUBLISHABLE_KEY: optionalString,
  /** Signing secret of the provider's webhook endpoint (`whsec_...`); unset = webhooks refused. */
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Seconds a signed webhook stays acceptable; an older one (a replay) is refused. */
  STRIPE_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(1).default(300),
  /**
   * localstripe only (development and tests): billing registers this URL (its own webhook, as localstripe can reach
   * it) with STRIPE_WEBHOOK_SECRET at start. With the real provider the endpoint is set in its dashboard.
   */
  STRIPE_LOCAL_WEBHOOK_URL: optionalString,
  /** The provider's API base (localstripe here, e.g. http://127.0.0.1:12111); unset = the real provider. */
  STRIPE_API_BASE: optionalString,
  /** Where browsers load Stripe.js from (localstripe serves a fake one at /js.stripe.com/v3/). */
  STRIPE_JS_URL: z.string().url().default('https://js.stripe.com/endive/stripe.js'),
  /** Prefix of the durable consumer names (tests use their own). */
  CONSUMER_PREFIX: z.string().min(1).default('billing'),
  /** Where a new durable starts: the whole history ('all': members who existed before billing) or 'new' (tests). */
  EVENTS_DELIVER: z.enum(['all', 'new']).default('all'),
  /** How often the jobs tick (trial ends, renewals, transfer sweeper); one instance runs them per tick (lease). */
  JOBS_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
  /** A transfer still unfinished after this long was left by a crash: the sweeper finishes or reverses it. */
  TRANSFER_SWEEP_AFTER_MS: z.coerce.number().int().min(0).default(30_000),
};

/**
 * Throws a ConfigError naming every missing or bad variable. The test clock and the crash points are the kit's
 * failpoints (PAGECAST_FAILPOINTS, refused when NODE_ENV=production).
 */
export function loadServiceConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(configSchema, env);
}

export type Config = ReturnType<typeof loadServiceConfig>;
