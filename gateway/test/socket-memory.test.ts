// What a held display costs the gateway (docs/scale.md "Memory per display"): its socket must not keep the upgrade's
// request alive (its headers and cookie: about 2 KiB a display, ten thousand displays to a process), and the load's
// settled-memory read answers only a gateway started with --expose-gc.
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DEVICE_SOCKET_PATH } from '@pagecast/contracts';
import { createLogger } from '@pagecast/service-kit';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { DeviceVerifier } from '../src/device';
import { createDeviceSockets } from '../src/device-socket';
import { RevocationStore } from '../src/revocations';
import { settledMemory } from '../src/server';
import { closeServer, listen } from './support';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const collectFully = async () => {
  for (let i = 0; i < 5; i++) {
    collect();
    await new Promise((r) => setImmediate(r));
  }
};

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe("a display's socket at the gateway", () => {
  it("does not keep the upgrade's request once the socket is open", async () => {
    const devices = {
      check: async () => ({ kind: 'valid', device: { deviceId: 'd1', screenId: 's1', ownerId: 'o1' } }),
    } as unknown as DeviceVerifier;
    const sockets = createDeviceSockets({
      devices,
      revocations: new RevocationStore(60_000),
      deviceHeader: () => 'header',
      rpc: () => undefined,
      logger: createLogger('test', 'silent'),
      windowMs: 60_000,
      maxCalls: 100,
    });
    cleanups.push(() => sockets.closeAll());
    const requests: Array<WeakRef<IncomingMessage>> = [];
    const server = http.createServer();
    server.on('upgrade', (req: IncomingMessage, socket, head) => {
      requests.push(new WeakRef(req));
      if (!sockets.upgrade(req, socket, head)) socket.destroy();
    });
    server.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    cleanups.push(() => closeServer(server));
    const { port } = server.address() as AddressInfo;

    const ws = new WebSocket(`ws://127.0.0.1:${port}${DEVICE_SOCKET_PATH}`, {
      headers: { cookie: `pc_device=${'x'.repeat(400)}`, origin: `http://127.0.0.1:${port}` },
    });
    cleanups.push(() => ws.terminate());
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    // the socket works: a ping is answered
    const pong = new Promise((r) => ws.once('message', (d) => r(String(d))));
    ws.send('{"type":"ping"}');
    expect(await pong).toBe('{"type":"pong"}');
    expect(sockets.size).toBe(1);

    await collectFully();
    expect(requests).toHaveLength(1);
    expect(requests[0]?.deref()).toBeUndefined();
    expect(sockets.size).toBe(1);
  });
});

describe('GET /debug/settled-memory (internal listener)', () => {
  const serve = async () => {
    const app = express();
    app.get('/debug/settled-memory', settledMemory({ size: 3 }));
    const { server, url } = await listen(app);
    cleanups.push(() => closeServer(server));
    return url;
  };

  it('is not served by a gateway started without --expose-gc', async () => {
    const g = globalThis as { gc?: () => void };
    const had = g.gc;
    delete g.gc;
    cleanups.push(() => {
      if (had) g.gc = had;
    });
    const url = await serve();
    expect((await fetch(`${url}/debug/settled-memory`)).status).toBe(404);
  });

  it('collects twice and answers the memory before and after, with the sockets held', async () => {
    const g = globalThis as { gc?: () => void };
    const had = g.gc;
    let collections = 0;
    g.gc = () => {
      collections++;
    };
    cleanups.push(() => {
      if (had) g.gc = had;
      else delete g.gc;
    });
    const url = await serve();
    const r = await fetch(`${url}/debug/settled-memory`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { before: Record<string, number>; after: Record<string, number> };
    expect(collections).toBe(2);
    expect(body).toMatchObject({ deviceSockets: 3 });
    for (const usage of [body.before, body.after])
      for (const k of ['rss', 'heapUsed', 'heapTotal', 'external', 'arrayBuffers']) expect(usage[k]).toBeGreaterThan(0);
  });
});
