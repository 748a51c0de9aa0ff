// A service's request log: a paired display's call (the gateway's signed device identity) is written only
// when it failed or was slow (LOG_SLOW_DEVICE_MS), a member's call always; the request metrics count every call.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { createHttpApp, type Listening, listen } from './http';
import { identityMiddleware, signDeviceIdentityHeader, signIdentityHeader } from './identity';
import { createLogger } from './logger';

type Line = Record<string, unknown> & { req?: { id?: string; url?: string; headers?: Record<string, string> } };

const secret = 's'.repeat(40);

/** A service app (as the runtime builds it) with this slow threshold, whose log lines are kept. */
async function startLoggedService(slowDeviceMs: number | undefined) {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger('request-log-test', 'info', sink);
  const { app, finish } = createHttpApp({ name: 'request-log-test', logger, slowDeviceMs });
  app.use(identityMiddleware(secret));
  app.get('/thing', (_req, res) => {
    res.json({ ok: true });
  });
  // a live stream, as the gateway holds a display's (its end: the client goes away)
  app.get('/stream', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': open\n\n');
  });
  app.get('/missing', () => {
    throw new AppError('NOT_FOUND');
  });
  finish();
  const server = await listen(app, 0);
  return { server, lines, linesOf: (id: string) => lines.filter((l) => l.req?.id === id) };
}

let fast: Awaited<ReturnType<typeof startLoggedService>>;
let slow: Awaited<ReturnType<typeof startLoggedService>>;
let byDefault: Awaited<ReturnType<typeof startLoggedService>>;

beforeAll(async () => {
  fast = await startLoggedService(60_000);
  slow = await startLoggedService(0);
  byDefault = await startLoggedService(undefined);
});

afterAll(async () => {
  await Promise.all([fast, slow, byDefault].map((s) => s?.server.close()));
});

const device = () =>
  signDeviceIdentityHeader({ deviceId: randomUUID(), screenId: randomUUID(), ownerId: `u-${randomUUID()}` }, secret);
const member = () => signIdentityHeader({ userId: `u-${randomUUID()}`, sessionId: randomUUID() }, secret);

/** Calls `path` with this identity header and a request id of its own; answers the status and the id. */
async function call(server: Listening, path: string, identity: string) {
  const id = `rl-${randomUUID()}`;
  const res = await fetch(`${server.url}${path}`, { headers: { 'x-pagecast-identity': identity, 'x-request-id': id } });
  await res.arrayBuffer();
  return { status: res.status, id };
}

async function waitFor<T>(fn: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await fn();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not reached in time');
}

/**
 * A member's call made after the calls before it ended: once its line is written, theirs would have been too (a
 * line is written when its answer has ended, before the client has it).
 */
async function afterNextMemberLine(service: typeof fast) {
  const { id, status } = await call(service.server, '/thing', member());
  expect(status).toBe(200);
  return waitFor(() => service.linesOf(id)[0]);
}

describe('request log', () => {
  it("writes a member's call and not a display's fast successful one (default threshold)", async () => {
    const shown = await call(byDefault.server, '/thing', device());
    expect(shown.status).toBe(200);
    const line = await afterNextMemberLine(byDefault);
    expect(line).toMatchObject({ level: 30, msg: 'request completed', res: { statusCode: 200 } });
    expect(line.req?.url).toBe('/thing');
    expect(line.req?.headers?.['x-pagecast-identity']).toBe('[redacted]');
    expect(typeof line.responseTime).toBe('number');
    expect(byDefault.linesOf(shown.id)).toEqual([]);
  });

  it("writes a display's failed call, not its successful one", async () => {
    const identity = device();
    const served = await call(fast.server, '/thing', identity);
    const failed = await call(fast.server, '/missing', identity);
    expect([served.status, failed.status]).toEqual([200, 404]);
    const line = await waitFor(() => fast.linesOf(failed.id)[0]);
    expect(line).toMatchObject({ level: 40, msg: 'request completed', res: { statusCode: 404 } });
    expect(line.req?.url).toBe('/missing');
    await afterNextMemberLine(fast);
    expect(fast.linesOf(failed.id)).toHaveLength(1);
    expect(fast.linesOf(served.id)).toEqual([]);
  });

  it("writes a display's call slower than the threshold, once, and not under it", async () => {
    const slowCall = await call(slow.server, '/thing', device());
    const fastCall = await call(fast.server, '/thing', device());
    expect([slowCall.status, fastCall.status]).toEqual([200, 200]);
    const line = await waitFor(() => slow.linesOf(slowCall.id)[0]);
    expect(line).toMatchObject({ level: 30, msg: 'request completed', res: { statusCode: 200 } });
    await afterNextMemberLine(slow);
    await afterNextMemberLine(fast);
    expect(slow.linesOf(slowCall.id)).toHaveLength(1);
    expect(fast.linesOf(fastCall.id)).toEqual([]);
  });

  it("does not write a display's live stream when it ends, and writes a member's", async () => {
    const open = async (identity: string) => {
      const id = `rl-${randomUUID()}`;
      const aborter = new AbortController();
      const res = await fetch(`${slow.server.url}/stream`, {
        headers: { 'x-pagecast-identity': identity, 'x-request-id': id },
        signal: aborter.signal,
      });
      expect(res.status).toBe(200);
      await res.body?.getReader().read(); // the first bytes: the stream is open
      aborter.abort(); // the client goes away (a display switched off)
      return id;
    };
    const display = await open(device());
    const owner = await open(member());
    // the member's stream is written (aborted) once it ends; the display's ended first and is not
    const line = await waitFor(() => slow.linesOf(owner)[0]);
    expect(line).toMatchObject({ msg: 'request completed', aborted: true });
    await afterNextMemberLine(slow);
    expect(slow.linesOf(display)).toEqual([]);
  });

  it('counts every display call in the request metrics, written or not', async () => {
    const count = async () => {
      const text = await (await fetch(`${fast.server.url}/metrics`)).text();
      const match = text.match(/^http_request_duration_seconds_count\{([^}]*)\} (\d+)$/gm) ?? [];
      const series = match.find((s) => s.includes('route="/thing"') && s.includes('status_code="200"'));
      return series ? Number(series.split(' ').at(-1)) : 0;
    };
    const before = await count();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const shown = await call(fast.server, '/thing', device());
      expect(shown.status).toBe(200);
      ids.push(shown.id);
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
