import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig } from './config';

const secret = 'k'.repeat(32);

describe('loadConfig', () => {
  it('applies dev defaults and a service default port', () => {
    const config = loadConfig({ PORT: z.coerce.number().int().default(4101) }, { INTERNAL_SECRET: secret });
    expect(config.PORT).toBe(4101);
    expect(config.MONGO_URL).toBe('mongodb://127.0.0.1:27017');
    expect(config.NATS_URL).toBe('nats://127.0.0.1:4222');
    expect(config.S3_BUCKET).toBe('pagecast');
    expect(config.S3_ACCESS_KEY).toBeUndefined();
  });

  it('reads and coerces the environment (PORT overrides)', () => {
    const config = loadConfig({ PORT: z.coerce.number().int().default(4101) }, { INTERNAL_SECRET: secret, PORT: '0' });
    expect(config.PORT).toBe(0);
  });

  it('fails with one readable line per missing or bad variable', () => {
    const extra = { S3_ACCESS_KEY: z.string().min(1) };
    let caught: unknown;
    try {
      loadConfig(extra, { MONGO_URL: 'not a url', INTERNAL_SECRET: 'short', S3_ACCESS_KEY: '' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as Error).message;
    expect(message).toContain('MONGO_URL: must be a URL');
    expect(message).toContain('INTERNAL_SECRET: must be at least 32 characters');
    expect(message).toContain('S3_ACCESS_KEY: is required');
  });

  it('a missing INTERNAL_SECRET is reported as required', () => {
    expect(() => loadConfig({}, {})).toThrow(/INTERNAL_SECRET: is required/);
  });
});
