// Fleet control tests: what they share.
import { expect } from 'vitest';
import { type Caller, call, type Json, type TestService } from './helpers';

/** The answer of a call that must succeed (2xx) with its body. */
export async function ok(svc: TestService, who: Caller, method: string, path: string, body?: unknown): Promise<Json> {
  const res = await call(svc, who, method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

/** A refusal: its status and stable code. */
export async function refused(
  svc: TestService,
  who: Caller,
  method: string,
  path: string,
  body: unknown,
  status: number,
  code: string,
): Promise<Json> {
  const res = await call(svc, who, method, path, body);
  expect({ status: res.status, code: res.body.code }, JSON.stringify(res.body)).toEqual({ status, code });
  return res.body;
}

export type Device = { deviceId: string; screenId: string; ownerId: string };

/** The display's manifest (GET /api/screens/device/me). */
export async function manifest(svc: TestService, device: Device): Promise<Json> {
  return ok(svc, { device }, 'GET', '/api/screens/device/me');
}

interface StoredEvent {
  subject: string;
  data: Record<string, unknown>;
  /** the whole message as published (for parseEvent) */
  envelope: unknown;
}

/** Every event of the SCREENS stream published after `afterSeq` (wait for a positive fact with `eventually`). */
export async function screensEvents(svc: TestService, afterSeq: number): Promise<StoredEvent[]> {
  const { jsm } = svc.server.context.nats;
  const info = await jsm.streams.info('SCREENS');
  const out: StoredEvent[] = [];
  for (let seq = afterSeq + 1; seq <= info.state.last_seq; seq++) {
    const m = await jsm.streams.getMessage('SCREENS', { seq }).catch(() => undefined);
    if (m) {
      const envelope = m.json<{ data: Record<string, unknown> }>();
      out.push({ subject: m.subject, data: envelope.data, envelope });
    }
  }
  return out;
}

export async function streamSeq(svc: TestService): Promise<number> {
  return (await svc.server.context.nats.jsm.streams.info('SCREENS')).state.last_seq;
}

/** Polls until `check` returns a value (not undefined); fails after about 10 s. */
export async function eventually<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('never happened');
}

/** The fleet events of one owner after `afterSeq`, once `count` of them are there. */
export async function fleetEvents(svc: TestService, ownerId: string, afterSeq: number, count: number) {
  return eventually(async () => {
    const events = (await screensEvents(svc, afterSeq)).filter(
      (e) => e.subject === 'screens.fleet.changed.v1' && e.data.ownerId === ownerId,
    );
    return events.length >= count ? events : undefined;
  });
}
