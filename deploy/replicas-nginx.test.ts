// The nginx that `npm start -- --replicas N` puts in front of the gateways and of each service's replicas
// (scripts/lib/nginx.mjs), run by Debian's nginx in front of two stand-in upstreams: round robin without sticky
// sessions, the client's address stated by the edge (never the one a client claims), passed on unchanged by a
// service pool, the live stream (GET /api/events) delivered as it is written, and request bodies streamed. And the
// whole chain a request crosses, with the gateway's real proxy and a service's real address check between the pools:
// a header the client forged never becomes the address a service counts. The displays' WebSocket passes the edge as
// an upgrade.
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CLIENT_ADDRESS_HEADER } from '@pagecast/contracts';
import { clientAddressMiddleware, createLogger, signClientAddressHeader } from '@pagecast/service-kit';
import express from 'express';
import { createServiceProxy } from '../gateway/src/proxy';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { freePort } from '../scripts/lib/net.mjs';
import { startNginx } from '../scripts/lib/nginx.mjs';
import { debian, ensureDebianPackages } from '../scripts/lib/tools.mjs';

interface Upstream {
  server: http.Server;
  port: number;
  /** a live stream waiting for its second event: released by the test */
  release?: () => void;
}

/** A stand-in gateway: answers who it is and the X-Forwarded-For it was given; /api/events writes one event, then
 * waits for the test before the second; POST /upload counts the bytes of the body. */
async function upstream(name: string, holder: Upstream[]): Promise<Upstream> {
  const port = await freePort();
  const me: Upstream = { port, server: http.createServer() };
  me.server.on('request', (req, res) => {
    if (req.url === '/api/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(`data: first from ${name}\n\n`);
      me.release = () => res.end('data: second\n\n');
      return;
    }
    let bytes = 0;
    req.on('data', (d: Buffer) => {
      bytes += d.length;
    });
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ name, xff: req.headers['x-forwarded-for'] ?? null, host: req.headers.host, bytes }));
    });
  });
  // the displays' socket: echoes each frame with the upstream's name
  const sockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  me.server.on('upgrade', (req, socket, head) => {
    if (req.url !== '/api/screens/device/socket') return socket.destroy();
    sockets.handleUpgrade(req, socket, head, (ws) => ws.on('message', (data) => ws.send(`${name}: ${String(data)}`)));
  });
  await new Promise<void>((r) => me.server.listen(port, '127.0.0.1', r));
  holder.push(me);
  return me;
}

const upstreams: Upstream[] = [];
let nginx: ChildProcess | undefined;
let prefix = '';
let edge = 0;
let pool = 0;
/** the chain: nginx edge -> gateway (its proxy, trusting loopback as the replicas run it) -> nginx pool -> service */
let chainEdge = 0;
const chainServers: http.Server[] = [];
const SECRET = 'a replicas test secret of 32 characters';

const listening = async (app: express.Express, port = 0): Promise<number> => {
  const server = app.listen(port, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  chainServers.push(server);
  return (server.address() as AddressInfo).port;
};

/** A service as service-kit runs one: it answers the address it counts (req.clientAddress) and what it was sent. */
async function chainService(): Promise<number> {
  const app = express();
  app.use(clientAddressMiddleware(SECRET));
  app.use((req, res) => {
    res.json({ address: req.clientAddress, xff: req.headers['x-forwarded-for'] ?? null });
  });
  return listening(app);
}

/** A gateway replica: express trusting loopback (TRUST_PROXY's default) in front of the gateway's own proxy. */
async function chainGateway(servicePool: number): Promise<number> {
  const app = express();
  app.set('trust proxy', 'loopback');
  const proxy = createServiceProxy({
    targets: {
      account: `http://127.0.0.1:${servicePool}`,
      'file-conversion': `http://127.0.0.1:${servicePool}`,
      marketplace: `http://127.0.0.1:${servicePool}`,
      billing: `http://127.0.0.1:${servicePool}`,
      screens: `http://127.0.0.1:${servicePool}`,
    },
    timeoutMs: 5000,
    logger: createLogger('replicas-test', 'silent'),
    internalSecret: SECRET,
  });
  app.use((req, res) => {
    delete req.headers[CLIENT_ADDRESS_HEADER]; // as the gateway's dropClientIdentity does first
    void proxy('account', req, res);
  });
  return listening(app);
}

beforeAll(async () => {
  await ensureDebianPackages(debian.proxy);
  const [a, b] = [await upstream('a', upstreams), await upstream('b', upstreams)];
  prefix = mkdtempSync(join(tmpdir(), 'pagecast-replicas-nginx-'));
  edge = await freePort();
  pool = await freePort();
  chainEdge = await freePort();
  const chainPool = await freePort();
  const service = await chainService();
  const gateway = await chainGateway(chainPool);
  nginx = await startNginx({
    prefix,
    pools: [
      { name: 'gateway', listen: edge, upstreams: [a.port, b.port], edge: true },
      { name: 'file-conversion', listen: pool, upstreams: [a.port, b.port] },
      { name: 'chain-gateway', listen: chainEdge, upstreams: [gateway], edge: true },
      { name: 'account', listen: chainPool, upstreams: [service] },
    ],
  });
});

afterAll(async () => {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((r) => nginx?.once('exit', r));
    nginx.kill('SIGTERM');
    await exited;
  }
  for (const u of upstreams) u.server.close();
  for (const s of chainServers) s.close();
  rmSync(prefix, { recursive: true, force: true });
});

const ask = async (port: number, headers: Record<string, string> = {}) =>
  (await (await fetch(`http://127.0.0.1:${port}/api/x`, { headers })).json()) as {
    name: string;
    xff: string | null;
    host: string;
    bytes: number;
  };

describe('the replicas nginx', () => {
  it('takes turns between the upstreams, the same client and cookie included (no sticky sessions)', async () => {
    const names: string[] = [];
    for (let i = 0; i < 20; i++) names.push((await ask(edge, { cookie: 'pc_session=same' })).name);
    // Each nginx worker takes turns on its own (one per core here), so over 20 requests the two counts differ by at
    // most one per worker.
    const a = names.filter((n) => n === 'a').length;
    expect(a).toBeGreaterThanOrEqual(8);
    expect(20 - a).toBeGreaterThanOrEqual(8);
  });

  it('states the client address to the gateways, whatever X-Forwarded-For the client sent, and keeps the Host', async () => {
    const seen = await ask(edge, { 'x-forwarded-for': '203.0.113.9' });
    expect(seen.xff).toBe('127.0.0.1');
    expect(seen.host).toBe(`127.0.0.1:${edge}`);
  });

  it("passes a gateway's X-Forwarded-For on to a service unchanged", async () => {
    const seen = await ask(pool, { 'x-forwarded-for': '198.51.100.7, 127.0.0.1' });
    expect(seen.xff).toBe('198.51.100.7, 127.0.0.1');
  });

  it('delivers each event of GET /api/events as it is written, before the stream ends', async () => {
    const res = await fetch(`http://127.0.0.1:${edge}/api/events`);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(/^data: first from [ab]\n\n$/);
    // only now does the upstream end the stream: a buffering proxy would have held the first event until here
    for (const u of upstreams) u.release?.();
    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toBe('data: second\n\n');
  });

  it("upgrades the displays' WebSocket through the edge, both ways", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${edge}/api/screens/device/socket`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const answer = new Promise<string>((resolve) => ws.once('message', (data) => resolve(String(data))));
    ws.send('{"type":"ping"}');
    expect(await answer).toMatch(/^[ab]: \{"type":"ping"\}$/);
    ws.close();
  });

  it('passes request bodies larger than nginx’s default 1 MB limit (the services set their own)', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024, 1);
    const res = await fetch(`http://127.0.0.1:${edge}/upload`, { method: 'POST', body });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { bytes: number }).bytes).toBe(body.length);
  });

  it('gives a service the address the edge saw, through a gateway and a service pool, whatever the client forged', async () => {
    const res = await fetch(`http://127.0.0.1:${chainEdge}/api/auth/local-login`, {
      headers: {
        'x-forwarded-for': '203.0.113.9, 10.0.0.8',
        forwarded: 'for=203.0.113.9',
        [CLIENT_ADDRESS_HEADER]: signClientAddressHeader('203.0.113.9', 'someone else key, 32 characters long'),
      },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ address: '127.0.0.1', xff: '127.0.0.1' });
  });
});
