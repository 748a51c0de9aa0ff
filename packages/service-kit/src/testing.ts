import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (this file is packages/service-kit/src/testing.ts). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** `.data/test/secrets.env`, written by `node scripts/infra.mjs up --profile test`; empty when absent. */
function testSecrets(): Record<string, string> {
  const file = resolve(repoRoot, '.data/test/secrets.env');
  if (!existsSync(file)) return {};
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')).trim(), l.slice(l.indexOf('=') + 1).trim()]),
  );
}

// Stable for the whole process, so a service and the test that signs headers for it agree.
const fallbackSecret = randomBytes(32).toString('base64url');

export interface TestEnv {
  MONGO_URL: string;
  NATS_URL: string;
  S3_ENDPOINT: string;
  S3_ACCESS_KEY: string;
  S3_SECRET_KEY: string;
  S3_BUCKET: string;
  SMTP_URL: string;
  MAILDEV_API_URL: string;
  STRIPE_API_BASE: string;
  INTERNAL_SECRET: string;
}

/** Servers of the test profile (docs/platform.md); the environment wins, as in `scripts/infra.mjs env`. */
export function testEnv(env: NodeJS.ProcessEnv = process.env): TestEnv {
  const secrets = testSecrets();
  const pick = (name: string, dflt: string): string => env[name] || secrets[name] || dflt;
  return {
    MONGO_URL: pick('MONGO_URL', 'mongodb://127.0.0.1:27117'),
    NATS_URL: pick('NATS_URL', 'nats://127.0.0.1:14222'),
    S3_ENDPOINT: pick('S3_ENDPOINT', 'http://127.0.0.1:19000'),
    S3_ACCESS_KEY: pick('S3_ACCESS_KEY', ''),
    S3_SECRET_KEY: pick('S3_SECRET_KEY', ''),
    S3_BUCKET: pick('S3_BUCKET', 'pagecast'),
    SMTP_URL: pick('SMTP_URL', 'smtp://127.0.0.1:11025'),
    MAILDEV_API_URL: pick('MAILDEV_API_URL', 'http://127.0.0.1:11080'),
    STRIPE_API_BASE: pick('STRIPE_API_BASE', 'http://127.0.0.1:12211'),
    INTERNAL_SECRET: pick('INTERNAL_SECRET', fallbackSecret),
  };
}

/**
 * A name no other test run uses: the prefix, then lowercase letters, digits and `-` (valid for a database, a NATS
 * durable and, with a lowercase prefix, an S3 bucket).
 */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}
