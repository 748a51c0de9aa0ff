import { DEVICE_READ_PREFIX, deviceRpcPrefix, loadConfig } from '@pagecast/service-kit';
import { z } from 'zod';

/** Variables of this service on top of the kit's base (docs/platform.md); PORT overrides the default. */
export const configSchema = {
  PORT: z.coerce.number().int().min(0).max(65535).default(4102),
  // This service stores objects (originals and page images): no default, the start scripts provide them.
  S3_ACCESS_KEY: z.string().min(1),
  S3_SECRET_KEY: z.string().min(1),
  // How this process takes part in conversion. CONVERSION_ROLE: 'all' (API and workers, the default), 'api' (no
  // workers) or 'worker' (workers only, plus health and metrics): more worker processes share the work queue.
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
  /** An unfinished resumable upload is removed (its parts too) this long after it began: 24 h. */
  RESUMABLE_UPLOAD_EXPIRY_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(24 * 60 * 60 * 1000),
  /** Prefix of the read models' durable consumer names (tests use their own). */
  CONSUMER_PREFIX: z.string().min(1).default('file-conversion'),
  /** Where a new read-model durable starts: the whole history ('all') or from now ('new', tests). */
  EVENTS_DELIVER: z.enum(['all', 'new']).default('all'),
  /**
   * The displays' content reads relayed by the gateway from their sockets: `<prefix>.playlist` and `<prefix>.pages`
   * (default rpc.files.device; docs/device-socket.md). The gateway's DEVICE_READ_SUBJECT_PREFIX must match.
   */
  DEVICE_READ_SUBJECT_PREFIX: deviceRpcPrefix.default(DEVICE_READ_PREFIX),
};

/** Throws a ConfigError naming every missing or bad variable. */
export function loadServiceConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(configSchema, env);
}

export type Config = ReturnType<typeof loadServiceConfig>;

const settingKeys = [
  'CONVERSION_ROLE',
  'CONVERSION_CONCURRENCY',
  'CONVERSION_ACK_WAIT_MS',
  'CONVERSION_MAX_ATTEMPTS',
  'CONVERSION_QUEUE',
  'CONSUMER_PREFIX',
  'EVENTS_DELIVER',
  'RESUMABLE_UPLOAD_EXPIRY_MS',
] as const;
/** The conversion and read-model settings of the config (tests override them per instance). */
export type ServiceSettings = Pick<Config, (typeof settingKeys)[number]>;
export function settingsOf(config: Config): ServiceSettings {
  return Object.fromEntries(settingKeys.map((k) => [k, config[k]])) as ServiceSettings;
}
