// The gateway's request log: a paired display's call is written only when it failed or was slow
// (LOG_SLOW_DEVICE_MS), a member's call always, and the request metrics count every call, written or not.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { findRoute } from '@pagecast/contracts';
import { createLogger } from '@pagecast/service-kit';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../src/server';
import { sendAnswer } from './contract';
import {
  closeServer,
  cookieHeader,
  createDeviceKeys,
  createKeys,
  gatewayConfig,
  type Keys,
  listen,
  startEchoService,
  startFakeAccount,
  waitFor,
} from './support';

type Line = Record<string, unknown> & { req?: { id?: string; url?: string }; msg?: string };

let keys: Keys;
let account: Awaited<ReturnType<typeof startFakeAccount>>;
let echo: Awaited<ReturnType<typeof startEchoService>>;
let screens: { url: string; close(): Promise<void> };
let signDevice: (d: { deviceId: string; screenId: string; ownerId: string }) => Promise<string>;

/** Screens stand-in: its JWKS, a display's screen and a member's fleet health, as the contracts say. */
async function startFakeScreens() {
  const deviceKeys = await createDeviceKeys();
  signDevice = deviceKeys.signDevice;
  const app = express();
  app.get('/.well-known/jwks.json', (_req, res) => res.json({ keys: [deviceKeys.jwk] }));
  app.use((req, res) => {
    req.resume();
    const route = findRoute(req.method, req.path)?.id ?? 'unknown';
    req.on('end', () => {
      if (route === 'deviceScreen') {
        sendAnswer(res, route, 200, {
          screenId: randomUUID(),
          name: 'ロビー',
          timeZone: 'Asia/Tokyo',
          assignment: { kind: 'none' },
          heartbeatSeconds: 60,
        });
      } else if (route === 'fleetHealth') {
        sendAnswer(res, route, 200, {
          counts: { total: 0, online: 0, offline: 0, closed: 0, broken: 0, frozen: 0, wrong: 0, ok: 0 },
          items: [],
          nextCursor: null,
        });
      } else sendAnswer(res, route, 404, { code: 'NOT_FOUND', message: 'Not found' });
    });
  });
  const { server, url } = await listen(app);
  return { url, close: () => closeServer(server) };
}

/** A gateway whose log lines are kept, with this LOG_SLOW_DEVICE_MS. */
async function startLoggedGateway(slowDeviceMs: string) {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const gateway: Gateway = createGateway(
    gatewayConfig({
      ACCOUNT_URL: account.url,
      FILES_URL: echo.url,
      MARKETPLACE_URL: echo.url,
      BILLING_URL: echo.url,
      SCREENS_URL: screens.url,
      LOG_SLOW_DEVICE_MS: slowDeviceMs,
    }),
    { logger: createLogger('gateway', 'info', sink) },
  );
  const { url, internalUrl } = await gateway.start(0);
  /** The request lines of the request sent with this x-request-id. */
  const linesOf = (requestId: string) => lines.filter((l) => l.req?.id === requestId);
  return { gateway, url, internalUrl, lines, linesOf };
}

let fast: Awaited<ReturnType<typeof startLoggedGateway>>;
let slow: Awaited<ReturnType<typeof startLoggedGateway>>;

beforeAll(async () => {
  keys = await createKeys();
  account = await startFakeAccount(keys);
  echo = await startEchoService('echo');
  screens = await startFakeScreens();
  fast = await startLoggedGateway('60000');
  slow = await startLoggedGateway('0');
});

afterAll(async () => {
  await fast?.gateway.close();
  await slow?.gateway.close();
  await Promise.all([account?.close(), echo?.close(), screens?.close()]);
});

const deviceCookie = async () =>
  `pc_device=${await signDevice({ deviceId: randomUUID(), screenId: randomUUID(), ownerId: `u-${randomUUID()}` })}`;
const memberCookie = () => keys.sign({ sub: `u-${randomUUID()}`, sid: `s-${randomUUID()}` }).then(cookieHeader);

/** Calls `path` on `base` with this cookie and a request id of its own; answers the status and the id. */
async function call(base: string, path: string, cookie: string) {
  const id = `rl-${randomUUID()}`;
  const res = await fetch(`${base}${path}`, { headers: { cookie, 'x-request-id': id } });
  await res.arrayBuffer();
  return { status: res.status, id };
}

/**
 * A member's call made after `id`'s answer ended: once its line is written, `id`'s line would have been too (the
 * line is written when the answer ends, before the client can send the next call).
 */
async function afterNextMemberLine(gw: typeof fast) {
  const member = await call(gw.url, '/api/screens/health', await memberCookie());
  expect(member.status).toBe(200);
  return waitFor(async () => gw.linesOf(member.id)[0]);
}

describe('request log at the gateway', () => {
  it("writes a member's call and not a display's fast successful one", async () => {
    const device = await call(fast.url, '/api/screens/device/me', await deviceCookie());
    expect(device.status).toBe(200);
    const memberLine = await afterNextMemberLine(fast);
    expect(memberLine).toMatchObject({ level: 30, msg: 'request completed', res: { statusCode: 200 } });
    expect(memberLine.req?.url).toBe('/api/screens/health');
    expect(typeof memberLine.responseTime).toBe('number');
    // the session cookie never reaches the log
    expect(JSON.stringify(memberLine)).not.toContain('pc_session=');
    expect(fast.linesOf(device.id)).toEqual([]);
  });

  it("writes a display's failed call, not its successful one", async () => {
    const cookie = await deviceCookie();
    const served = await call(fast.url, '/api/screens/device/me', cookie);
    expect(served.status).toBe(200);
    // a member's route: refused to a display, by the gateway
    const refused = await call(fast.url, '/api/screens', cookie);
    expect(refused.status).toBe(403);
    const line = await waitFor(async () => fast.linesOf(refused.id)[0]);
    expect(line).toMatchObject({ level: 40, msg: 'request completed', res: { statusCode: 403 } });
    expect(line.req?.url).toBe('/api/screens');
    await afterNextMemberLine(fast);
    expect(fast.linesOf(refused.id)).toHaveLength(1);
    expect(fast.linesOf(served.id)).toEqual([]);
  });

  it("writes a display's call slower than LOG_SLOW_DEVICE_MS, once, and not under it", async () => {
    // the same call at the gateway with LOG_SLOW_DEVICE_MS=0 (every call is slower) and at the one with 60 s
    const slowCall = await call(slow.url, '/api/screens/device/me', await deviceCookie());
    const fastCall = await call(fast.url, '/api/screens/device/me', await deviceCookie());
    expect([slowCall.status, fastCall.status]).toEqual([200, 200]);
    const line = await waitFor(async () => slow.linesOf(slowCall.id)[0]);
    expect(line).toMatchObject({ level: 30, msg: 'request completed', res: { statusCode: 200 } });
    expect(line.req?.url).toBe('/api/screens/device/me');
    expect(line.responseTime).toBeGreaterThanOrEqual(0);
    await afterNextMemberLine(slow);
    await afterNextMemberLine(fast);
    expect(slow.linesOf(slowCall.id)).toHaveLength(1);
    expect(fast.linesOf(fastCall.id)).toEqual([]);
  });

  it('counts every display call in the request metrics, written or not', async () => {
    const count = async () => {
      const text = await (await fetch(`${fast.internalUrl}/metrics`)).text();
      // every series of the duration histogram with status 200: the display's calls and the members'
      return [...text.matchAll(/^http_request_duration_seconds_count\{([^}]*)\} (\d+)$/gm)]
        .filter(([, labels]) => labels?.includes('status_code="200"') && labels.includes('method="GET"'))
        .reduce((sum, [, , n]) => sum + Number(n), 0);
    };
    const before = await count();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const device = await call(fast.url, '/api/screens/device/me', await deviceCookie());
      expect(device.status).toBe(200);
      ids.push(device.id);
    }
    // the histogram is updated when each answer has ended: wait until it has seen the five
    const after = await waitFor(async () => {
      const n = await count();
      return n >= before + 5 ? n : undefined;
    });
    expect(after).toBe(before + 5);
    await afterNextMemberLine(fast);
    expect(ids.flatMap((id) => fast.linesOf(id))).toEqual([]);
  });
});
