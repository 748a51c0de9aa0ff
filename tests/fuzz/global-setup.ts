// Starts the product once (infra, services, gateway; no front ends: nothing here renders) on port 18085, installs
// schemathesis if missing, and signs in one verified member whose session cookie every fuzzing request carries.
import { randomUUID } from 'node:crypto';
import type { TestProject } from 'vitest/node';

export interface FuzzTarget {
  /** the gateway, as a browser reaches it */
  baseUrl: string;
  /** each service's own origin (direct calls, as from inside the network) */
  services: Record<string, string>;
  /** HMAC key of the identity header, to call services directly as the member */
  internalSecret: string;
  /** `pc_session=...` of the signed-in member */
  cookie: string;
  /** `pc_device=...` of a display paired to that member, for the routes only a display may call */
  deviceCookie: string;
  userId: string;
  sessionId: string;
  /** the schemathesis executable in the tool cache */
  schemathesis: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    fuzz: FuzzTarget;
  }
}

interface Stack {
  url: string;
  ports: Record<string, number>;
  env: Record<string, string>;
  mailUrl?: string;
  stop(): Promise<void>;
}

let stack: Stack | undefined;

/** Pairs a display to the member through the real calls: code on the display, claim by the member, poll. */
async function pairDevice(baseUrl: string, cookie: string): Promise<string> {
  const json = { 'content-type': 'application/json' };
  const started = await fetch(`${baseUrl}/api/screens/pairing`, { method: 'POST' });
  const { pairingId, code, pollSecret } = (await started.json()) as Record<string, string>;
  const paired = await fetch(`${baseUrl}/api/screens`, {
    method: 'POST',
    headers: { ...json, cookie },
    body: JSON.stringify({ code, name: 'fuzz display', timeZone: 'Asia/Tokyo' }),
  });
  if (paired.status !== 201) throw new Error(`pairing: ${paired.status} ${await paired.text()}`);
  const poll = await fetch(`${baseUrl}/api/screens/pairing/${pairingId}/poll`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ pollSecret }),
  });
  const device = poll.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith('pc_device='));
  if (!device) throw new Error(`pairing poll gave no device cookie: ${poll.status} ${await poll.text()}`);
  return device;
}

async function signIn(baseUrl: string, mailUrl: string): Promise<{ cookie: string; userId: string }> {
  const email = `fuzz-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'correct horse battery staple';
  const post = (path: string, body: unknown) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      redirect: 'manual',
    });
  const registered = await post('/api/auth/register', { email, password, firstName: 'Fuzz', lastName: 'Tester' });
  if (!registered.ok) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  let token: string | undefined;
  for (const deadline = Date.now() + 15_000; !token && Date.now() < deadline; ) {
    const mails = (await (await fetch(`${mailUrl}/email`)).json()) as { text?: string; headers?: { to?: string } }[];
    token = mails.find((m) => m.headers?.to?.includes(email))?.text?.match(/verify-email\?token=([\w-]+)/)?.[1];
    if (!token) await new Promise((r) => setTimeout(r, 300));
  }
  if (!token) throw new Error(`no verification e-mail for ${email}`);
  const verified = await post('/api/auth/verify-email', { token });
  if (!verified.ok) throw new Error(`verify: ${verified.status} ${await verified.text()}`);
  const login = await post('/api/auth/local-login', { email, password });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] as string)
    .find((c) => c.startsWith('pc_session='));
  if (!login.ok || !cookie) throw new Error(`login: ${login.status} ${await login.text()}`);
  const me = (await (await fetch(`${baseUrl}/api/auth/user`, { headers: { cookie } })).json()) as { id?: string };
  if (!me.id) throw new Error(`the signed-in member has no id: ${JSON.stringify(me)}`);
  return { cookie, userId: me.id };
}

export async function setup(project: TestProject) {
  // @ts-expect-error: plain JavaScript module without types
  const tools = (await import('../../scripts/lib/tools.mjs')) as { ensurePythonTool(name: string): Promise<string> };
  const schemathesis = await tools.ensurePythonTool('schemathesis');
  // @ts-expect-error: plain JavaScript module without types
  const { startStack } = (await import('../../scripts/lib/stack.mjs')) as {
    startStack(opts: {
      profile: string;
      port: number;
      build?: boolean;
      quiet?: boolean;
      env?: Record<string, string>;
    }): Promise<Stack>;
  };
  // Every request comes from 127.0.0.1: the per-address limits would turn the run into 429s (those are tested in
  // the gateway's own tests).
  stack = await startStack({
    profile: 'test',
    port: 18085,
    build: false,
    quiet: true,
    env: {
      RATE_LIMIT_AUTH_MAX: '1000000',
      RATE_LIMIT_API_MAX: '1000000',
      LOGIN_FAILURES_PER_ADDRESS: '1000000',
      LOG_LEVEL: 'warn',
    },
  });
  const baseUrl = stack.url.replace('localhost', '127.0.0.1');
  const { cookie, userId } = await signIn(baseUrl, stack.mailUrl ?? 'http://127.0.0.1:11080');
  const payload = JSON.parse(Buffer.from(cookie.split('.')[1] ?? '', 'base64url').toString()) as { sid?: string };
  const deviceCookie = await pairDevice(baseUrl, cookie);
  project.provide('fuzz', {
    baseUrl,
    services: Object.fromEntries(Object.entries(stack.ports).map(([name, port]) => [name, `http://127.0.0.1:${port}`])),
    internalSecret: stack.env.INTERNAL_SECRET as string,
    cookie,
    deviceCookie,
    userId,
    sessionId: payload.sid ?? '',
    schemathesis,
  });
}

export async function teardown() {
  await stack?.stop();
}
