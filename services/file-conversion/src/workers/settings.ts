import { z } from 'zod';

/**
 * How this process takes part in conversion, from the environment. CONVERSION_ROLE: 'all' (API and workers, the
 * default), 'api' (no workers) or 'worker' (workers only, plus health and metrics): more worker processes on more
 * machines share the work queue.
 */
export const serviceSettingsSchema = z.object({
  CONVERSION_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  /** Jobs one process converts at once (they share the process's render pool). */
  CONVERSION_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /** A job whose worker stops heartbeating for this long is given to another worker. */
  CONVERSION_ACK_WAIT_MS: z.coerce.number().int().min(1000).default(30_000),
  /** Deliveries of one job before the file is disabled with CONVERSION_FAILED. */
  CONVERSION_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(3),
  /**
   * Partition of the conversion work queue: uploads and workers with the same name meet. Separate deployments (or
   * test runs) that share one NATS set different names so that no worker takes a job whose file it cannot see.
   */
  CONVERSION_QUEUE: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional(),
  /** Prefix of the read models' durable consumer names (tests use their own). */
  CONSUMER_PREFIX: z.string().min(1).default('file-conversion'),
  /** Where a new read-model durable starts: the whole history ('all') or from now ('new', tests). */
  EVENTS_DELIVER: z.enum(['all', 'new']).default('all'),
});
export type ServiceSettings = z.infer<typeof serviceSettingsSchema>;

export function loadServiceSettings(env: NodeJS.ProcessEnv = process.env): ServiceSettings {
  const input = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  return serviceSettingsSchema.parse(input);
}
