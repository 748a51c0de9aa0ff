import { loadConfig } from '@pagecast/service-kit';
import { z } from 'zod';

/** Variables of this service on top of the kit's base (docs/platform.md); PORT overrides the default. */
export const configSchema = {
  PORT: z.coerce.number().int().min(0).max(65535).default(4102),
  // This service stores objects (originals and page images): no default, the start scripts provide them.
  S3_ACCESS_KEY: z.string().min(1),
  S3_SECRET_KEY: z.string().min(1),
};

/** Throws a ConfigError naming every missing or bad variable. */
export function loadServiceConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(configSchema, env);
}

export type Config = ReturnType<typeof loadServiceConfig>;
