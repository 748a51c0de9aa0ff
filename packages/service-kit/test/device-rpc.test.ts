// The display's calls relayed over core NATS (device-rpc.ts) against the real NATS test server: calls arriving
// together go as one request and come back in their order, each with its own answer; and when their answers together
// are larger than one NATS message (a fleet-wide change asks hundreds of manifests at once) each call is sent again
// alone and still answered, rather than all of them failing as unavailable.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conditionalAnswer, DEVICE_RPC_BATCH_MAX, deviceRpcClient, serveDeviceRpc } from '../src/device-rpc';
import { signDeviceIdentityHeader } from '../src/identity';
import { connectNats, type Nats } from '../src/nats';
import { testEnv } from '../src/testing';
import { captureLogger } from './helpers';

const env = testEnv();
const { logger } = captureLogger();
let nats: Nats;
let served: ReturnType<typeof serveDeviceRpc>;
const prefix = `kit-test-${randomUUID().slice(0, 8)}.device`;
/** requests the service received, by subject's last token (`batch` or a call's type) */
const received: string[] = [];

const device = (n: number) => ({ kind: 'device' as const, deviceId: `d${n}`, screenId: `s${n}`, ownerId: 'o1' });

beforeAll(async () => {
  nats = await connectNats(env.NATS_URL, logger, 'device-rpc-test');
  // every request the service is sent, seen beside it (outside its queue group)
  nats.nc.subscribe(`${prefix}.*`, {
    callback: (_err, msg) => void received.push(msg.subject.slice(prefix.length + 1)),
  });
  served = serveDeviceRpc(nats.nc, {
    secret: env.INTERNAL_SECRET,
    logger,
    prefix,
    handlers: {
      // an answer of the size asked for, naming the device (so each call's answer is its own)
      manifest: (d, body) => ({ body: { screenId: d.screenId, text: 'x'.repeat((body as { size: number }).size) } }),
    },
  });
});
afterAll(async () => {
  await served?.stop();
  await nats?.nc.close();
});

const ask = (rpc: ReturnType<typeof deviceRpcClient>, n: number, size: number) =>
  rpc(
    'manifest',
    signDeviceIdentityHeader(device(n), env.INTERNAL_SECRET),
    JSON.stringify({ type: 'manifest', ref: n, body: { size } }),
  ).then((text) => JSON.parse(text) as { status: number; body: { screenId: string; text: string } });

describe('device calls relayed over NATS', () => {
  it('sends calls arriving together as one request and gives each its own answer', async () => {
    const rpc = deviceRpcClient(nats.nc, { prefix, timeoutMs: 5000 });
    received.length = 0;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => ask(rpc, n, 10)));
    expect(answers.map((a) => [a.status, a.body.screenId])).toEqual(
      Array.from({ length: 20 }, (_, n) => [200, `s${n}`]),
    );
    expect(received).toEqual(['batch']);
  });

  it('answers every call when the answers together exceed a NATS message, each sent again alone', async () => {
    const rpc = deviceRpcClient(nats.nc, { prefix, timeoutMs: 5000 });
    const max = nats.nc.info?.max_payload ?? 1024 * 1024;
    // each answer a fifth of a message: a batch of 20 holds four messages' worth, each alone fits
    const size = Math.floor(max / 5);
    const n = Math.min(20, DEVICE_RPC_BATCH_MAX);
    received.length = 0;
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => ask(rpc, i, size)));
    expect(answers.map((a) => [a.status, a.body.screenId, a.body.text.length])).toEqual(
      Array.from({ length: n }, (_, i) => [200, `s${i}`, size]),
    );
    // the batch, refused as too large together, then each call alone
    expect(received[0]).toBe('batch');
    expect(received.filter((s) => s === 'manifest')).toHaveLength(n);
  });

  it('answers a call whose own answer exceeds a NATS message 413 at once, not after the time-out', async () => {
    const rpc = deviceRpcClient(nats.nc, { prefix, timeoutMs: 5000, batchMs: 0 });
    const max = nats.nc.info?.max_payload ?? 1024 * 1024;
    const t0 = Date.now();
    const answer = (await rpc(
      'manifest',
      signDeviceIdentityHeader(device(1), env.INTERNAL_SECRET),
      JSON.stringify({ type: 'manifest', ref: 1, body: { size: max } }),
    ).then(JSON.parse)) as { status: number; body: { code: string } };
    expect([answer.status, answer.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(Date.now() - t0).toBeLessThan(4000);
  });
});

describe('a read answered over the socket', () => {
  it("carries the ETag Express's res.json gives the same body, and 304 with no body for it", async () => {
    const express = (await import('express')).default;
    const body = [{ id: 'p1', title: 'ロビー', n: 2 }];
    const app = express();
    app.get('/x', (_req, res) => void res.json(body));
    const server = app.listen(0);
    await new Promise((r) => server.once('listening', r));
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/x`);
      const httpTag = res.headers.get('etag');
      expect(httpTag).toMatch(/^W\//);
      expect(conditionalAnswer(body, undefined)).toEqual({ status: 200, etag: httpTag, body });
      expect(conditionalAnswer(body, httpTag ?? '')).toEqual({ status: 304, etag: httpTag, body: null });
      // another body, another tag
      expect(conditionalAnswer([...body, { id: 'p2' }], httpTag ?? '').status).toBe(200);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
