import { z } from 'zod';
import { anyFailpoint, failpointsSetting } from './failpoints';

/** Thrown by loadConfig; its message lists every bad variable, one a line, so a failed start is easy to read. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const url = (example: string) => z.string().url(`must be a URL such as ${example}`);

/**
 * Variables every service reads. Defaults are the dev-profile servers (docs/platform.md); secrets have none.
 * S3 keys are optional here because only services that store objects need them: those make them required in `extra`.
 */
export const baseConfigSchema = {
  PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** Address to listen on: loopback unless a deployment says otherwise (compose and Kubernetes set 0.0.0.0). */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Time-outs of the HTTP server (docs/platform.md, "Time-outs"): headers must arrive within HEADERS_TIMEOUT_MS,
   * a body may pause at most BODY_IDLE_TIMEOUT_MS, a whole request (headers and body) takes at most REQUEST_TIMEOUT_MS. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  BODY_IDLE_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** A paired display's call is logged only when it failed or took longer than this (ms); others' calls always. */
  LOG_SLOW_DEVICE_MS: z.coerce.number().int().min(0).default(1000),
  MONGO_URL: url('mongodb://127.0.0.1:27017').default('mongodb://127.0.0.1:27017'),
  /** Overrides the service's own database name (pagecast_<service>); tests use it to isolate runs. */
  MONGO_DB: z.string().min(1).optional(),
  /**
   * Put before the service's own database name (pagecast_<service>): a whole stack started with one prefix keeps
   * its data apart from another's on the same server, so two test stacks can run at once (scripts/lib/stack.mjs).
   */
  MONGO_DB_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_]*$/, 'letters, digits and _ only')
    .default(''),
  /** Most connections (so most operations at once) from this process to the database; see mongo.ts. */
  MONGO_MAX_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(20),
  /** One server, or several separated by commas (a cluster: the client fails over between them). */
  NATS_URL: z
    .string()
    .default('nats://127.0.0.1:4222')
    .refine((v) => v.split(',').every((part) => URL.canParse(part.trim())), {
      message: 'must be a URL such as nats://127.0.0.1:4222, or several separated by commas',
    }),
  /** Copies of each stream and key-value bucket JetStream keeps: 1 on one server, 3 on a cluster of three or more. */
  NATS_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  S3_ENDPOINT: url('http://127.0.0.1:9000').default('http://127.0.0.1:9000'),
  S3_ACCESS_KEY: z.string().min(1).optional(),
  S3_SECRET_KEY: z.string().min(1).optional(),
  S3_BUCKET: z.string().min(3).default('pagecast'),
  SMTP_URL: url('smtp://127.0.0.1:1025').default('smtp://127.0.0.1:1025'),
  PUBLIC_URL: url('http://localhost:8080').default('http://localhost:8080'),
  INTERNAL_SECRET: z.string({ error: 'is required' }).min(32, 'must be at least 32 characters'),
  /** How long a start waits for the database, NATS and S3 to answer (start-retry.ts) before it fails. */
  START_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  /** Test only: crash points and test clocks to turn on (failpoints.ts); refused when NODE_ENV=production. */
  PAGECAST_FAILPOINTS: failpointsSetting,
};

const baseObject = z.object(baseConfigSchema);
export type BaseConfig = z.infer<typeof baseObject>;

/**
 * Reads the base variables plus `extra` (which may override base entries, e.g. a default PORT or required S3 keys).
 * Empty strings count as unset. Throws ConfigError naming every missing or bad variable.
 */
export function loadConfig<S extends z.ZodRawShape>(
  extra: S,
  env: NodeJS.ProcessEnv = process.env,
): BaseConfig & z.infer<z.ZodObject<S>> {
  const schema = z.object({ ...baseConfigSchema, ...extra });
  const input = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(input);
  if (!result.success) {
    const lines = result.error.issues.map((i) => {
      const name = i.path.join('.');
      const message = i.code === 'invalid_type' && input[name] === undefined ? 'is required' : i.message;
      return `  ${name}: ${message}`;
    });
    throw new ConfigError(`Invalid configuration (environment variables):\n${lines.join('\n')}`);
  }
  const config = result.data as BaseConfig & z.infer<z.ZodObject<S>>;
  if (env.NODE_ENV === 'production' && anyFailpoint(config.PAGECAST_FAILPOINTS)) {
    throw new ConfigError('PAGECAST_FAILPOINTS is test-only and refused when NODE_ENV=production');
  }
  return config;
}

/** The database a service uses: MONGO_DB when set, else its own name behind MONGO_DB_PREFIX. */
export function databaseNameOf(config: { MONGO_DB?: string; MONGO_DB_PREFIX?: string }, ownName: string): string {
  return config.MONGO_DB ?? `${config.MONGO_DB_PREFIX ?? ''}${ownName}`;
}
