// The vitest suite lives in its own entry point so that importing the testing helpers (benchmarks do) never loads vitest.
import { routesFor, type ServiceName } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BaseConfig, ConfigError } from './config';
import { testEnv, uniqueName } from './testing';

export interface ServiceHealthOptions<C extends BaseConfig> {
  service: ServiceName;
  /** the port the service listens on when PORT is not set (docs/platform.md) */
  defaultPort: number;
  loadConfig(env: NodeJS.ProcessEnv): C;
  createServer(config: C): Promise<{ url: string; close(opts?: { dropDatabase?: boolean }): Promise<void> }>;
  /** the service stores objects: its configuration requires the S3 keys */
  s3?: boolean;
}

/**
 * The health tests every service passes: it starts against the real test servers (an isolated database) and serves
 * health, readiness, its own OpenAPI routes, metrics, 404 and the identity check; its configuration fails readably.
 */
export function describeServiceHealth<C extends BaseConfig>(opts: ServiceHealthOptions<C>): void {
  const { service } = opts;
  let server: Awaited<ReturnType<typeof opts.createServer>>;

  beforeAll(async () => {
    const config = opts.loadConfig({
      ...testEnv(),
      PORT: '0',
      LOG_LEVEL: 'silent',
      MONGO_DB: uniqueName(`${service.replaceAll('-', '_')}_health`),
    });
    server = await opts.createServer(config);
  });
  afterAll(async () => {
    // the service's writers stop before its database is dropped
    await server?.close({ dropDatabase: true });
  });

  describe(`${service} starts against the real servers`, () => {
    it('is alive and ready', async () => {
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });
    });

    it('serves an OpenAPI 3.1 document with exactly its own routes', async () => {
      const res = await fetch(`${server.url}/openapi.json`);
      expect(res.status).toBe(200);
      const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
      expect(doc.openapi).toMatch(/^3\.1\./);
      const own = routesFor(service);
      expect(own.length).toBeGreaterThan(0);
      const expected = own.map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`).sort();
      const served = Object.entries(doc.paths)
        .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`))
        .sort();
      expect(served).toEqual(expected);
    });

    it('exposes Prometheus metrics including HTTP request durations', async () => {
      await fetch(`${server.url}/healthz`);
      const res = await fetch(`${server.url}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain('process_cpu_user_seconds_total');
      expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/healthz"[^}]*status_code="200"/);
      expect(text).toContain(`service="${service}"`);
    });

    it('answers an unknown route with 404 NOT_FOUND', async () => {
      const res = await fetch(`${server.url}/api/no-such-route`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
    });

    it('refuses a forged identity header with 401 Unauthorized', async () => {
      const res = await fetch(`${server.url}/api/no-such-route`, {
        headers: { 'x-pagecast-identity': 'forged.header' },
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized' });
    });
  });

  describe(`${service} configuration`, () => {
    it(`defaults to port ${opts.defaultPort} and the dev servers`, () => {
      const s3Keys = opts.s3 ? { S3_ACCESS_KEY: 'k', S3_SECRET_KEY: 's' } : {};
      const config = opts.loadConfig({ INTERNAL_SECRET: 'x'.repeat(32), ...s3Keys });
      expect(config.PORT).toBe(opts.defaultPort);
      expect(config.MONGO_URL).toBe('mongodb://127.0.0.1:27017');
      expect(config.NATS_URL).toBe('nats://127.0.0.1:4222');
    });

    it('fails fast with a readable message when INTERNAL_SECRET is missing', () => {
      const { INTERNAL_SECRET: _, ...rest } = testEnv();
      expect(() => opts.loadConfig(rest)).toThrow(ConfigError);
      expect(() => opts.loadConfig(rest)).toThrow(/INTERNAL_SECRET: is required/);
    });

    it('refuses the test failpoints (PAGECAST_FAILPOINTS) when NODE_ENV=production', () => {
      const prod = { ...testEnv(), NODE_ENV: 'production' };
      expect(opts.loadConfig(prod)).toBeTruthy();
      for (const value of ['seed=1', 'marketplace.clock', 'billing.transfer-after-buyer=crash@0.5']) {
        expect(() => opts.loadConfig({ ...prod, PAGECAST_FAILPOINTS: value }), value).toThrow(ConfigError);
        expect(() => opts.loadConfig({ ...prod, PAGECAST_FAILPOINTS: value }), value).toThrow(
          /PAGECAST_FAILPOINTS is test-only and refused when NODE_ENV=production/,
        );
      }
    });

    if (opts.s3) {
      it('refuses to start without S3 keys (this service stores objects)', () => {
        const { S3_ACCESS_KEY: _a, S3_SECRET_KEY: _s, ...rest } = testEnv();
        expect(() => opts.loadConfig(rest)).toThrow(/S3_ACCESS_KEY: is required[\s\S]*S3_SECRET_KEY: is required/);
      });
    }
  });
}
