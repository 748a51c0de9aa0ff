// The nginx that `npm start -- --replicas N` puts in front of the gateways and of each service's replicas
// (scripts/lib/nginx.mjs), run by Debian's nginx in front of two stand-in upstreams: round robin without sticky
// sessions, the client's address stated by the edge (never the one a client claims), passed on unchanged by a
// service pool, the live stream (GET /api/events) delivered as it is written, and request bodies streamed.
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  await new Promise<void>((r) => me.server.listen(port, '127.0.0.1', r));
  holder.push(me);
  return me;
}

const upstreams: Upstream[] = [];
let nginx: ChildProcess | undefined;
let prefix = '';
let edge = 0;
let pool = 0;

beforeAll(async () => {
  await ensureDebianPackages(debian.proxy);
  const [a, b] = [await upstream('a', upstreams), await upstream('b', upstreams)];
  prefix = mkdtempSync(join(tmpdir(), 'pagecast-replicas-nginx-'));
  edge = await freePort();
  pool = await freePort();
  nginx = await startNginx({
    prefix,
    pools: [
      { name: 'gateway', listen: edge, upstreams: [a.port, b.port], edge: true },
      { name: 'file-conversion', listen: pool, upstreams: [a.port, b.port] },
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

  it('passes request bodies larger than nginx’s default 1 MB limit (the services set their own)', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024, 1);
    const res = await fetch(`http://127.0.0.1:${edge}/upload`, { method: 'POST', body });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { bytes: number }).bytes).toBe(body.length);
  });
});
