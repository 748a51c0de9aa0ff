// The display's socket calls between gateway and service (device-rpc.ts), on the real NATS: the answer is the HTTP
// error handler's for the same error, a missing or forged identity is 401, no responder is 503; and no subject of the
// calls is one a JetStream stream stores (JetStream would store each call and answer it with its acknowledgement).
import { randomUUID } from 'node:crypto';
import { streamForSubject } from '@pagecast/contracts';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, errorAnswer, parseWith } from './errors';
import {
  DEVICE_RPC_PREFIX,
  deviceRpcClient,
  deviceRpcPrefix,
  deviceRpcSubject,
  joinBatch,
  serveDeviceRpc,
  splitBatch,
} from './device-rpc';
import { signDeviceIdentityHeader, signIdentityHeader } from './identity';
import { createLogger } from './logger';
import { ensureStreams } from './nats';
import { testEnv } from './testing';
import { z } from 'zod';

const secret = testEnv().INTERNAL_SECRET;
const prefix = `kit-test-${randomUUID().slice(0, 8)}.device`;
const logger = createLogger('device-rpc-test', 'silent');
const device = { deviceId: 'd1', screenId: 's1', ownerId: 'u1' };
let nc: NatsConnection;
let served: ReturnType<typeof serveDeviceRpc>;
const seen: unknown[] = [];

beforeAll(async () => {
  nc = await connect({ servers: testEnv().NATS_URL });
  served = serveDeviceRpc(nc, {
    secret,
    prefix,
    logger,
    handlers: {
      echo: (who, body) => {
        seen.push({ who, body });
        return { body: { got: body } };
      },
      strict: (_who, body) => ({ body: parseWith(z.object({ n: z.number() }), body) }),
      conflict: () => {
        throw new AppError('CONFLICT', { details: { head: 3 } });
      },
    },
  });
});
afterAll(async () => {
  await served?.stop();
  await nc?.close();
});

describe('device calls over NATS', () => {
  it('passes the frame’s body with the verified device, and answers the handler’s body', async () => {
    const rpc = deviceRpcClient(nc, { prefix });
    const text = await rpc(
      'echo',
      signDeviceIdentityHeader(device, secret),
      JSON.stringify({ type: 'echo', ref: 4, body: { a: 1 } }),
    );
    expect(JSON.parse(text)).toEqual({ status: 200, body: { got: { a: 1 } } });
    expect(seen.at(-1)).toMatchObject({ who: { kind: 'device', ...device }, body: { a: 1 } });
  });

  it('answers an error with the HTTP error handler’s status and body', async () => {
    const rpc = deviceRpcClient(nc, { prefix });
    const header = signDeviceIdentityHeader(device, secret);
    for (const [type, body, err] of [
      ['strict', { n: 'x' }, () => parseWith(z.object({ n: z.number() }), { n: 'x' })],
      [
        'conflict',
        {},
        () => {
          throw new AppError('CONFLICT', { details: { head: 3 } });
        },
      ],
    ] as const) {
      let expected: unknown;
      try {
        err();
      } catch (e) {
        expected = errorAnswer(e, logger);
      }
      expect(JSON.parse(await rpc(type, header, JSON.stringify({ type, ref: 1, body })))).toEqual(expected);
    }
  });

  it('refuses a member’s or a forged identity (401), an unknown call (404), a frame that is not JSON (400)', async () => {
    const rpc = deviceRpcClient(nc, { prefix });
    const member = signIdentityHeader({ userId: 'u1', sessionId: 's1' }, secret);
    expect(JSON.parse(await rpc('echo', member, '{}'))).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    expect(JSON.parse(await rpc('echo', 'x.y', '{}'))).toMatchObject({ status: 401 });
    const header = signDeviceIdentityHeader(device, secret);
    expect(JSON.parse(await rpc('nope', header, '{}'))).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(JSON.parse(await rpc('echo', header, '{no'))).toMatchObject({ status: 400, body: { code: 'VALIDATION' } });
  });

  it('sends calls made within a few ms as one NATS request, each with its own identity and answer', async () => {
    const rpc = deviceRpcClient(nc, { prefix });
    const relayed: string[] = [];
    const watcher = nc.subscribe(`${prefix}.*`, { callback: (_err, msg) => void relayed.push(msg.subject) });
    await nc.flush();
    const header = signDeviceIdentityHeader(device, secret);
    const other = signDeviceIdentityHeader({ ...device, deviceId: 'd2' }, secret);
    // a frame with a newline and non-ASCII text inside, as a display may send
    const frames = [
      { type: 'echo', header, text: JSON.stringify({ type: 'echo', ref: 1, body: { s: 'a\nb', t: 'テスト' } }) },
      { type: 'echo', header: 'x.y', text: '{"type":"echo","ref":2,"body":{}}' },
      { type: 'nope', header, text: '{}' },
      { type: 'echo', header: other, text: '{"type":"echo","ref":3,"body":3}' },
    ];
    const answers = (await Promise.all(frames.map((f) => rpc(f.type, f.header, f.text)))).map((t) => JSON.parse(t));
    await nc.flush();
    watcher.unsubscribe();
    expect(relayed).toEqual([`${prefix}.batch`]);
    expect(answers).toEqual([
      { status: 200, body: { got: { s: 'a\nb', t: 'テスト' } } },
      expect.objectContaining({ status: 401 }),
      expect.objectContaining({ status: 404 }),
      { status: 200, body: { got: 3 } },
    ]);
    expect(seen.at(-1)).toMatchObject({ who: { deviceId: 'd2' }, body: 3 });
  });

  it('cuts and joins a batch whatever its frames hold', () => {
    const calls = [
      { type: 'plays', header: 'a.b', frame: Buffer.from('{"x":"1\n2\n3"}') },
      { type: 'heartbeat', header: 'c.d', frame: Buffer.from('') },
      { type: 'key', header: 'e.f', frame: Buffer.from('{"k":"é"}') },
    ];
    const back = splitBatch(joinBatch(calls));
    expect(back?.map((c) => [c.type, c.header, Buffer.from(c.frame).toString()])).toEqual(
      calls.map((c) => [c.type, c.header, c.frame.toString()]),
    );
    expect(splitBatch(Buffer.from('plays\na.b\n99\n{}'))).toBeUndefined();
  });

  it('without batching (batchMs 0), each call is its own request', async () => {
    const rpc = deviceRpcClient(nc, { prefix, batchMs: 0 });
    const relayed: string[] = [];
    const watcher = nc.subscribe(`${prefix}.*`, { callback: (_err, msg) => void relayed.push(msg.subject) });
    await nc.flush();
    const header = signDeviceIdentityHeader(device, secret);
    await Promise.all([rpc('echo', header, '{"body":1}'), rpc('echo', header, '{"body":2}')]);
    await nc.flush();
    watcher.unsubscribe();
    expect(relayed).toEqual([`${prefix}.echo`, `${prefix}.echo`]);
  });

  it('answers 503 when no instance of the service listens', async () => {
    const rpc = deviceRpcClient(nc, { prefix: `${prefix}-nobody`, timeoutMs: 2000 });
    expect(JSON.parse(await rpc('echo', signDeviceIdentityHeader(device, secret), '{}'))).toMatchObject({
      status: 503,
      body: { code: 'SERVICE_UNAVAILABLE' },
    });
  });

  it('uses subjects no stream stores, and refuses a prefix under one', () => {
    expect(streamForSubject(deviceRpcSubject('heartbeat'))).toBeUndefined();
    expect(deviceRpcPrefix.parse(DEVICE_RPC_PREFIX)).toBe(DEVICE_RPC_PREFIX);
    expect(deviceRpcPrefix.safeParse('screens.device').success).toBe(false);
    expect(deviceRpcPrefix.safeParse('a..b').success).toBe(false);
  });

  it('on the server, with the platform’s streams in place, no stream stores the calls (the old default was stored)', async () => {
    // The server's own answer, not only the contracts' list: a stream defined elsewhere (a service's own, such as
    // screens' PLAYS on plays.*) that captured the calls would answer each request with its acknowledgement first.
    const jsm = await jetstreamManager(nc);
    await ensureStreams(jsm);
    const storing = async (subject: string) => {
      const names: string[] = [];
      for await (const name of jsm.streams.names(subject)) names.push(name);
      return names;
    };
    for (const type of ['hello', 'heartbeat', 'plays', 'key', 'manifest']) {
      expect(await storing(deviceRpcSubject(type))).toEqual([]);
    }
    expect(await storing('screens.device.heartbeat')).toEqual(['SCREENS']);
  });
});
