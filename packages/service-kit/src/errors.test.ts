import net from 'node:net';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { errorMessagesJa, validationMessagesJa } from '@pagecast/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, parseWith } from './errors';
import { createHttpApp, DEFAULT_TIMEOUTS, decodedBody, type Listening, listen } from './http';
import { identityMiddleware, requireIdentity, signIdentityHeader } from './identity';

describe('parseWith', () => {
  const schema = z.object({
    email: z.string().email('validation.emailInvalid'),
    profile: z.object({ firstName: z.string().min(1, 'validation.firstNameRequired') }),
    nickname: z.string().min(3, 'validation.someUnknownKey'),
  });

  it('returns the parsed value when valid', () => {
    const value = { email: 'a@example.com', profile: { firstName: 'Hana' }, nickname: 'abc' };
    expect(parseWith(schema, value)).toEqual(value);
  });

  it('throws VALIDATION whose issues carry the path, the Japanese text and the message key', () => {
    let caught: unknown;
    try {
      parseWith(schema, { email: 'nope', profile: { firstName: '' }, nickname: 'x' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    const err = caught as AppError;
    expect(err.code).toBe('VALIDATION');
    expect(err.status).toBe(400);
    expect(err.issues).toEqual([
      { path: 'email', key: 'validation.emailInvalid', message: validationMessagesJa['validation.emailInvalid'] },
      {
        path: 'profile.firstName',
        key: 'validation.firstNameRequired',
        message: validationMessagesJa['validation.firstNameRequired'],
      },
      // no Japanese text for the key: the key itself is the message
      { path: 'nickname', key: 'validation.someUnknownKey', message: 'validation.someUnknownKey' },
    ]);
    expect(validationMessagesJa['validation.emailInvalid']).toMatch(/メール/);
  });
});

describe('errorHandler (through createHttpApp)', () => {
  const logLines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const secret = 's'.repeat(40);
  let server: Listening;

  beforeAll(async () => {
    const { app, finish } = createHttpApp({ name: 'errors-test', logger });
    app.use(identityMiddleware(secret));
    app.get('/app-error', () => {
      throw new AppError('INSUFFICIENT_POINTS', { details: { balance: 3 } });
    });
    app.get('/custom', () => {
      throw new AppError('CONFLICT', { message: 'custom text', status: 418 });
    });
    app.post('/zod', (req, res) => {
      res.json(z.object({ n: z.number({ error: 'validation.invalid' }) }).parse(req.body));
    });
    app.get('/boom', async () => {
      throw new Error('database exploded: secret detail');
    });
    app.get('/me', (req, res) => {
      res.json(requireIdentity(req));
    });
    // a handler that streams the body itself (as uploads do)
    app.post('/raw', async (req, res, next) => {
      try {
        const chunks: Buffer[] = [];
        for await (const chunk of decodedBody(req)) chunks.push(chunk as Buffer);
        res.json({ text: Buffer.concat(chunks).toString() });
      } catch (err) {
        next(err);
      }
    });
    app.get('/items/:id', (req, res) => {
      res.json({ id: req.params.id });
    });
    app.get('/s3-denied', () => {
      // A driver's own 4xx (here an S3-style 403) is our fault, not the client's: it stays a 500.
      throw Object.assign(new Error('Access Denied'), { statusCode: 403, status: 403 });
    });
    finish();
    server = await listen(app, 0, '127.0.0.1');
  });
  afterAll(() => server.close());

  it('an AppError becomes its status and { code, message } (+ details)', async () => {
    const res = await fetch(`${server.url}/app-error`);
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({
      code: 'INSUFFICIENT_POINTS',
      message: 'ポイントが不足しています',
      details: { balance: 3 },
    });
  });

  it('an AppError keeps an explicit message and status', async () => {
    const res = await fetch(`${server.url}/custom`);
    expect(res.status).toBe(418);
    expect(await res.json()).toEqual({ code: 'CONFLICT', message: 'custom text' });
  });

  it('a ZodError becomes 400 VALIDATION with issues', async () => {
    const res = await fetch(`${server.url}/zod`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ n: 'x' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'VALIDATION',
      message: '入力内容を確認してください',
      issues: [{ path: 'n', key: 'validation.invalid', message: validationMessagesJa['validation.invalid'] }],
    });
  });

  it('malformed JSON is a 400 VALIDATION, not a 500', async () => {
    const res = await fetch(`${server.url}/zod`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"n":',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('VALIDATION');
  });

  it('a JSON body over 1 MB is 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await fetch(`${server.url}/zod`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ n: 1, pad: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('an unexpected error is a 500 INTERNAL with a correlationId that is also in the log, without the detail', async () => {
    const res = await fetch(`${server.url}/boom`, { headers: { 'x-request-id': 'req-boom-1' } });
    expect(res.status).toBe(500);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({ code: 'INTERNAL', message: 'サーバーでエラーが発生しました', correlationId: 'req-boom-1' });
    expect(res.headers.get('x-request-id')).toBe('req-boom-1');
    const logged = logLines.find((l) => l.correlationId === 'req-boom-1');
    expect(logged?.err).toMatchObject({ message: 'database exploded: secret detail' });
  });

  it('each request without an id gets a fresh one', async () => {
    const a = await fetch(`${server.url}/boom`);
    const b = await fetch(`${server.url}/boom`);
    const idA = ((await a.json()) as { correlationId: string }).correlationId;
    const idB = ((await b.json()) as { correlationId: string }).correlationId;
    expect(idA).toMatch(/^[0-9a-f-]{36}$/);
    expect(idA).not.toBe(idB);
    expect(a.headers.get('x-request-id')).toBe(idA);
  });

  it('an unknown route is 404 NOT_FOUND', async () => {
    const res = await fetch(`${server.url}/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 'NOT_FOUND', message: '見つかりません' });
  });

  it('identity: none → anonymous (401 where required); valid → the identity; bad → 401 Unauthorized', async () => {
    const anonymous = await fetch(`${server.url}/me`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized' });

    const ok = await fetch(`${server.url}/me`, {
      headers: { 'x-pagecast-identity': signIdentityHeader({ userId: 'u9', sessionId: 's9' }, secret) },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ userId: 'u9', sessionId: 's9' });

    const forged = await fetch(`${server.url}/healthz`, {
      headers: { 'x-pagecast-identity': signIdentityHeader({ userId: 'u9', sessionId: 's9' }, 'x'.repeat(40)) },
    });
    expect(forged.status).toBe(200); // health comes before the identity middleware
    const forgedMe = await fetch(`${server.url}/me`, {
      headers: { 'x-pagecast-identity': signIdentityHeader({ userId: 'u9', sessionId: 's9' }, 'x'.repeat(40)) },
    });
    expect(forgedMe.status).toBe(401);
  });

  describe('bad input the client sent is 4xx with a stable code, never 500', () => {
    const json = JSON.stringify({ n: 1 });
    const encoders: Record<string, (b: Buffer) => Buffer> = {
      gzip: zlib.gzipSync,
      br: zlib.brotliCompressSync,
      deflate: zlib.deflateSync,
    };

    it.each(Object.keys(encoders))('a body that is not valid %s is 400 MALFORMED_REQUEST', async (encoding) => {
      for (const body of [Buffer.from(json), Buffer.from('\x1f\x8b\x08garbage'), Buffer.alloc(0)]) {
        const res = await fetch(`${server.url}/zod`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-encoding': encoding },
          body: new Uint8Array(body),
        });
        if (body.length === 0) {
          // nothing to decode: an empty body is a validation error of the route, not a decoding one
          expect(res.status).toBeLessThan(500);
          continue;
        }
        expect(res.status, `${encoding} ${body.toString('hex').slice(0, 16)}`).toBe(400);
        expect(await res.json()).toEqual({ code: 'MALFORMED_REQUEST', message: errorMessagesJa.MALFORMED_REQUEST });
      }
    });

    it.each(Object.keys(encoders))('a validly %s-encoded body still works', async (encoding) => {
      const res = await fetch(`${server.url}/zod`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: new Uint8Array((encoders[encoding] as (b: Buffer) => Buffer)(Buffer.from(json))),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ n: 1 });
    });

    it.each(Object.keys(encoders))(
      'decodedBody: a streamed %s body is decoded, a broken one is 400',
      async (encoding) => {
        const raw = (body: Uint8Array<ArrayBuffer>) =>
          fetch(`${server.url}/raw`, {
            method: 'POST',
            headers: { 'content-type': 'application/octet-stream', 'content-encoding': encoding },
            body,
          });
        const ok = await raw(new Uint8Array((encoders[encoding] as (b: Buffer) => Buffer)(Buffer.from('hello'))));
        expect(await ok.json()).toEqual({ text: 'hello' });
        const bad = await raw(new Uint8Array(Buffer.from('hello')));
        expect([bad.status, ((await bad.json()) as { code: string }).code]).toEqual([400, 'MALFORMED_REQUEST']);
        const unknown = await fetch(`${server.url}/raw`, {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream', 'content-encoding': 'compress' },
          body: 'hello',
        });
        expect(unknown.status).toBe(415);
      },
    );

    it('an unknown Content-Encoding is 415 UNSUPPORTED_MEDIA_TYPE', async () => {
      const res = await fetch(`${server.url}/zod`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': 'x-pagecast' },
        body: json,
      });
      expect(res.status).toBe(415);
      expect(((await res.json()) as { code: string }).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    });

    it.each(['%ff', '%E0%A4%A', '%', 'a%zz'])(
      'a path parameter with broken percent-encoding (%s) is 400',
      async (bad) => {
        const res = await fetch(`${server.url}/items/${bad}`);
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ code: 'MALFORMED_REQUEST', message: errorMessagesJa.MALFORMED_REQUEST });
        // the same on a path no route matches: malformed before it is unknown
        const unknown = await fetch(`${server.url}/nowhere/${bad}`);
        expect([unknown.status, ((await unknown.json()) as { code: string }).code]).toEqual([400, 'MALFORMED_REQUEST']);
        const good = await fetch(`${server.url}/items/%E3%81%82`);
        expect(await good.json()).toEqual({ id: 'あ' });
      },
    );

    it("a driver's 4xx without http-errors' expose stays a 500", async () => {
      const res = await fetch(`${server.url}/s3-denied`);
      expect(res.status).toBe(500);
      expect(((await res.json()) as { code: string }).code).toBe('INTERNAL');
    });
  });
});

describe('time-outs', () => {
  const logger = pino({ level: 'silent' });
  let server: Listening;
  beforeAll(async () => {
    const { app, finish } = createHttpApp({ name: 'timeouts-test', logger, bodyIdleTimeoutMs: 300 });
    app.post('/echo', (req, res) => {
      res.json(req.body);
    });
    // ignores its body and is slower than the idle time-out: it must still answer
    app.post('/slow', async (_req, res) => {
      await new Promise((r) => setTimeout(r, 900));
      res.json({ slow: true });
    });
    finish();
    // the whole-request limit is past the client's own give-up (15 s): only the idle and headers limits can answer
    server = await listen(app, 0, '127.0.0.1', { headersTimeoutMs: 400, requestTimeoutMs: 60_000 });
  });
  afterAll(() => server.close());

  /** Sends raw bytes and resolves with what came back and how long until the server closed the connection. */
  function raw(text: string): Promise<{ answer: string; ms: number }> {
    return new Promise((resolve, reject) => {
      const t0 = Date.now();
      const socket = net.connect(server.port, '127.0.0.1', () => socket.write(text));
      let answer = '';
      socket.on('data', (d) => {
        answer += d.toString();
      });
      socket.on('error', reject);
      socket.on('close', () => resolve({ answer, ms: Date.now() - t0 }));
      setTimeout(() => socket.destroy(), 15_000).unref();
    });
  }

  it('a Content-Length larger than the body is answered 408 REQUEST_TIMEOUT and closed after the idle time-out', async () => {
    const { answer } = await raw(
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"n":',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    // our JSON body: the body's idle time-out answered, not Node's own whole-request limit
    expect(answer).toContain('"code":"REQUEST_TIMEOUT"');
  });

  it('a body that keeps arriving slowly, and a slow handler after a complete body, are not cut', async () => {
    const slowBody = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(server.port, '127.0.0.1', async () => {
        socket.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 12\r\n\r\n');
        for (const part of ['{"a"', ':', '"slow', '"}']) {
          await new Promise((r) => setTimeout(r, 200)); // 800 ms in all, each pause under the 300 ms idle limit
          socket.write(part);
        }
      });
      let answer = '';
      socket.on('data', (d) => {
        answer += d.toString();
        if (answer.includes('}', answer.indexOf('\r\n\r\n'))) {
          socket.destroy();
          resolve(answer);
        }
      });
      socket.on('error', reject);
    });
    expect(slowBody).toMatch(/^HTTP\/1\.1 200 /);
    expect(slowBody).toContain('{"a":"slow"}');
    const slow = await fetch(`${server.url}/slow`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: 'ignored',
    });
    expect([slow.status, await slow.json()]).toEqual([200, { slow: true }]);
  });

  it('headers that never finish are cut off by the headers time-out', async () => {
    // the server answers and closes (the client gives up only after 15 s, and the whole-request limit is 60 s)
    const { answer } = await raw('POST /echo HTTP/1.1\r\nHost: x\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a whole request that arrives normally is not affected, and the defaults are well under 20 s', async () => {
    const res = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ok: true }),
    });
    expect(await res.json()).toEqual({ ok: true });
    expect(DEFAULT_TIMEOUTS.bodyIdleTimeoutMs).toBeLessThan(20_000);
    expect(DEFAULT_TIMEOUTS.headersTimeoutMs).toBeLessThan(20_000);
  });
});
