import os from 'node:os';
import { CLIENT_ADDRESS_HEADER } from '@pagecast/contracts';
import express from 'express';
import { AppError } from '../src/errors';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { signClientAddressHeader, signIdentityHeader } from '../src/identity';
import { createLogger } from '../src/logger';
import { connectMongo } from '../src/mongo';
import { type RunningService, type RuntimeContext, startServiceRuntime } from '../src/runtime';
import { testEnv, uniqueName } from '../src/testing';

const logger = createLogger('billing', 'silent');
const configFor = (db: string) => loadConfig({}, { ...testEnv(), PORT: '0', LOG_LEVEL: 'silent', MONGO_DB: db });
const started: RunningService<RuntimeContext>[] = [];

afterAll(async () => {
  for (const s of started) await s.close();
});

function pingRouter() {
  const router = express.Router();
  router.get('/api/ping', (req, res) => {
    res.json({ ip: req.clientAddress });
  });
  router.get('/api/shared', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=60').json({ same: 'for everyone' });
  });
  router.get('/api/shared-then-missing', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=60');
    throw new AppError('NOT_FOUND');
  });
  return router;
}

describe('startServiceRuntime (real NATS, FerretDB and MinIO)', () => {
  it('serves the mounted routers behind the identity check and closes newest first', async () => {
    const order: string[] = [];
    const server = await startServiceRuntime({
      name: 'billing',
      config: configFor(uniqueName('kit_runtime')),
      logger,
      databaseName: 'unused',
      context: (base, onClose) => {
        onClose(async () => order.push(`context (mongo open: ${base.conn.readyState === 1})`));
        return { ...base, extra: 1 };
      },
      mount: (context, onClose) => {
        expect(context.extra).toBe(1);
        // a writer that writes as it stops (a consumer finishing its message): it must not outlive the drop
        onClose(async () => {
          order.push('mount');
          await context.conn.collection('late').insertOne({ at: 'close' });
        });
        return [pingRouter()];
      },
    });
    expect(server.context.dbName).toMatch(/^kit_runtime-/);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const ping = await fetch(`${server.url}/api/ping`);
    expect(ping.status).toBe(200);
    // Answers may depend on the member: no-store unless a route says its answer is shareable; errors never cached.
    expect(ping.headers.get('cache-control')).toBe('no-store');
    expect((await fetch(`${server.url}/api/shared`)).headers.get('cache-control')).toBe('public, max-age=60');
    const missing = await fetch(`${server.url}/api/shared-then-missing`);
    expect([missing.status, missing.headers.get('cache-control')]).toEqual([404, 'no-store']);
    expect((await fetch(`${server.url}/api/nothing-here`)).headers.get('cache-control')).toBe('no-store');
    // Loopback unless HOST says otherwise: nothing answers on this machine's other addresses.
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a?.family === 'IPv4' && !a.internal)?.address;
    expect(external, 'this machine needs a non-loopback address for this test').toBeDefined();
    await expect(fetch(`http://${external}:${server.port}/healthz`)).rejects.toThrow();
    const forged = await fetch(`${server.url}/api/ping`, { headers: { 'x-pagecast-identity': 'forged.header' } });
    expect(forged.status).toBe(401);
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { openapi: string };
    expect(doc.openapi).toMatch(/^3\.1\./);

    await server.close({ dropDatabase: true });
    // HTTP closed before the service's own closers; those before the connections they use.
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    expect(order).toEqual(['mount', 'context (mongo open: true)']);
    expect(server.context.conn.readyState).toBe(0);
    expect(server.context.nats.nc.isClosed()).toBe(true);
    // dropped after the writers stopped: the late write went with it (before them, it would have made it again)
    const admin = await connectMongo(testEnv().MONGO_URL, 'admin', logger);
    try {
      const { databases } = await admin.getClient().db().admin().listDatabases();
      expect(databases.map((d) => d.name)).not.toContain(server.context.dbName);
    } finally {
      await admin.close();
    }
  });

  it('a failed start closes what it had opened and rethrows', async () => {
    let seen: RuntimeContext | undefined;
    const closed: string[] = [];
    const start = startServiceRuntime({
      name: 'billing',
      config: configFor(uniqueName('kit_runtime')),
      logger,
      databaseName: 'unused',
      context: (base, onClose) => {
        seen = base;
        onClose(async () => closed.push('context'));
        return base;
      },
      mount: () => {
        throw new Error('consumer failed');
      },
    });
    await expect(start).rejects.toThrow('consumer failed');
    expect(closed).toEqual(['context']);
    expect(seen?.conn.readyState).toBe(0);
    expect(seen?.nats.nc.isClosed()).toBe(true);
  });

  it('with s3 ensures the bucket and is ready only while it answers', async () => {
    const bucket = uniqueName('kit-runtime');
    const server = await startServiceRuntime({
      name: 'file-conversion',
      config: { ...configFor(uniqueName('kit_runtime')), S3_BUCKET: bucket },
      logger,
      databaseName: 'unused',
      s3: true,
      context: (base) => base,
      mount: () => [],
    });
    started.push(server);
    const { s3 } = server.context;
    expect(s3.bucket).toBe(bucket);
    expect(await s3.client.bucketExists(bucket)).toBe(true);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    await s3.client.removeBucket(bucket);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    await server.context.conn.dropDatabase();
  });

  it("takes the client's address from the gateway's signed statement only, never from X-Forwarded-For", async () => {
    const config = configFor(uniqueName('kit_runtime'));
    const server = await startServiceRuntime({
      name: 'account',
      config,
      logger,
      databaseName: 'unused',
      context: (base) => base,
      mount: () => [pingRouter()],
    });
    started.push(server);
    const ping = async (headers: Record<string, string>) =>
      ((await (await fetch(`${server.url}/api/ping`, { headers })).json()) as { ip: string }).ip;
    const signed = signClientAddressHeader('203.0.113.7', config.INTERNAL_SECRET);
    expect(await ping({ [CLIENT_ADDRESS_HEADER]: signed })).toBe('203.0.113.7');
    // what a client or a hop on the way could write: the connection's own address instead
    const own = await ping({});
    expect(own).toMatch(/127\.0\.0\.1$/);
    expect(await ping({ 'x-forwarded-for': '198.51.100.9' })).toBe(own);
    expect(await ping({ 'x-forwarded-for': '198.51.100.9, 127.0.0.1' })).toBe(own);
    expect(
      await ping({ [CLIENT_ADDRESS_HEADER]: signClientAddressHeader('198.51.100.9', 'another secret of 32 chars!!') }),
    ).toBe(own);
    const stale = signClientAddressHeader('198.51.100.9', config.INTERNAL_SECRET, Date.now() - 120_000);
    expect(await ping({ [CLIENT_ADDRESS_HEADER]: stale })).toBe(own);
    // an identity header's signature does not make an address
    const identity = signIdentityHeader({ userId: 'u', sessionId: 's' }, config.INTERNAL_SECRET);
    expect(await ping({ [CLIENT_ADDRESS_HEADER]: identity })).toBe(own);
    await server.context.conn.dropDatabase();
  });
});
