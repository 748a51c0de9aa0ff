import { loadConfig } from '@pagecast/service-kit';
import { z } from 'zod';

/** Variables of this service on top of the kit's base (docs/platform.md); PORT overrides the default. */
export const configSchema = {
  PORT: z.coerce.number().int().min(0).max(65535).default(4101),
  /** Sender of account's mails (verification, password reset). */
  MAIL_FROM: z.string().min(3).default('Pagecast <no-reply@pagecast.local>'),
  /** Failed logins per client address in 15 minutes before 429 (browser tests from one address raise it). */
  LOGIN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  /**
   * Where a NEW durable consumer of billing's events starts: `all` (a new deployment builds its copy of every
   * member's balance from the stream) or `new` (component tests: their database is new, so older events concern
   * nobody in it, and replaying every earlier run's events only delays theirs).
   */
  BILLING_EVENTS_FROM: z.enum(['all', 'new']).default('all'),
  /** Where a NEW durable consumer of the audit entries starts (as BILLING_EVENTS_FROM: `new` in component tests). */
  AUDIT_EVENTS_FROM: z.enum(['all', 'new']).default('all'),
};

/** Throws a ConfigError naming every missing or bad variable. */
export function loadServiceConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(configSchema, env);
}

export type Config = ReturnType<typeof loadServiceConfig>;
