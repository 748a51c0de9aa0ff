// Starts the real account service in-process against the test servers and speaks to it as the gateway would:
// HTTP with a signed identity header, NATS for events, maildev's API for the mails.
import { type Locale, SESSION_COOKIE, type Subject, type WorkspaceRole } from '@pagecast/contracts';
import { connectNats, type Nats } from '@pagecast/service-kit';
import { callService, clientAddressHeaders, testEnv, uniqueName } from '@pagecast/service-kit/testing';
import { decodeJwt } from 'jose';
import { loadServiceConfig } from '../src/config';
import { durableName } from '../src/events';
import { createServer, type Server } from '../src/server';

/** Answers and event data: checked by the tests' assertions, not by the compiler. */
// biome-ignore lint/suspicious/noExplicitAny: test payloads are asserted at run time
export type Json = any;

export const PUBLIC_URL = 'http://pagecast.test:8080';
export const env = testEnv();

export interface Harness {
  server: Server;
  url: string;
  nats: Nats;
  close(): Promise<void>;
}

export async function startHarness(prefix: string, extraEnv: Record<string, string> = {}): Promise<Harness> {
  const config = loadServiceConfig({
    ...env,
    PORT: '0',
    BILLING_EVENTS_FROM: 'new',
    AUDIT_EVENTS_FROM: 'new',
    LOG_LEVEL: 'silent',
    MONGO_DB: uniqueName(prefix),
    PUBLIC_URL,
    ...extraEnv,
  });
  const server = await createServer(config);
  const nats = await connectNats(env.NATS_URL, server.context.logger, `${prefix}-test`);
  return {
    server,
    url: server.url,
    nats,
    async close() {
      await server.context.background.idle();
      const durable = `${durableName(server.context.dbName)}-billing`;
      await nats.jsm.consumers.delete('BILLING', durable).catch(() => undefined);
      await nats.jsm.consumers
        .delete('SCREENS', `${durableName(server.context.dbName)}-screen-alerts`)
        .catch(() => undefined);
      await nats.jsm.consumers.delete('AUDIT', `${durableName(server.context.dbName)}-audit`).catch(() => undefined);
      for (const suffix of ['alert-takeovers', 'proposals'])
        await nats.jsm.consumers
          .delete('SCREENS', `${durableName(server.context.dbName)}-${suffix}`)
          .catch(() => undefined);
      // dropped once its writers (consumers, jobs, outbox relay) have stopped
      await server.close({ dropDatabase: true });
      await nats.nc.drain();
    },
  };
}

/** The headers of a call from `address`, as the gateway states it (signed). */
export const from = (address: string) => clientAddressHeaders(address, env.INTERNAL_SECRET);

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export interface Call {
  status: number;
  body: Json;
  headers: Headers;
}

export async function call(
  h: Harness,
  method: string,
  path: string,
  opts: { body?: unknown; identity?: { userId: string; sessionId: string }; headers?: Record<string, string> } = {},
): Promise<Call> {
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const a = await callService(h.url, env.INTERNAL_SECRET, opts.identity ?? null, method, path, body, opts.headers);
  // an empty answer reads as null here (the tests compare with it)
  return { status: a.status, body: a.text ? a.body : null, headers: a.headers };
}

export interface Mail {
  to: Array<{ address: string }>;
  subject: string;
  text: string;
  html: string;
  date: string;
}

/** The mails maildev holds for an address, oldest first. */
export async function mailsTo(address: string): Promise<Mail[]> {
  const res = await fetch(`${env.MAILDEV_API_URL}/email`);
  const all = (await res.json()) as Mail[];
  return all.filter((m) => m.to.some((t) => t.address.toLowerCase() === address.toLowerCase()));
}

/** Waits until `count` mails have arrived for the address; returns the newest. */
export async function waitForMail(address: string, count = 1, timeoutMs = 10_000): Promise<Mail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const mails = await mailsTo(address);
    if (mails.length >= count) return mails[mails.length - 1] as Mail;
    if (Date.now() > until) throw new Error(`no mail #${count} for ${address} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function tokenFromMail(mail: Mail): string {
  const match = /[?&]token=([\w-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no token in mail: ${mail.text}`);
  return match[1];
}

export interface Session {
  token: string;
  userId: string;
  sessionId: string;
  identity: { userId: string; sessionId: string };
  setCookie: string;
}

/** The session cookie set by a login answer. */
export function sessionFrom(res: Call): Session {
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!setCookie) throw new Error(`no session cookie (status ${res.status})`);
  const token = setCookie.slice(SESSION_COOKIE.length + 1).split(';')[0] ?? '';
  const claims = decodeJwt(token) as { sub: string; sid: string };
  return {
    token,
    userId: claims.sub,
    sessionId: claims.sid,
    identity: { userId: claims.sub, sessionId: claims.sid },
    setCookie,
  };
}

/** Registers, verifies with the mailed token and returns the credentials. */
export async function verifiedMember(
  h: Harness,
  tag: string,
  password = 'correct horse battery',
): Promise<{ email: string; password: string }> {
  const email = uniqueEmail(tag);
  const reg = await call(h, 'POST', '/api/auth/register', {
    body: { email, firstName: '花子', lastName: '佐藤', password },
  });
  if (reg.status !== 200) throw new Error(`register answered ${reg.status}: ${JSON.stringify(reg.body)}`);
  const token = tokenFromMail(await waitForMail(email));
  const verified = await call(h, 'POST', '/api/auth/verify-email', { body: { token } });
  if (verified.status !== 200) throw new Error(`verify answered ${verified.status}`);
  return { email, password };
}

export async function login(h: Harness, email: string, password: string, headers?: Record<string, string>) {
  const res = await call(h, 'POST', '/api/auth/local-login', { body: { email, password }, headers });
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { res, session: sessionFrom(res) };
}

/** A signed-in person, as the workspace tests use them: their e-mail, id and the identity the gateway would sign. */
export interface Person {
  email: string;
  userId: string;
  identity: { userId: string; sessionId: string };
}

export const TEST_PASSWORD = 'correct horse battery';

/**
 * Registers in `locale` through the real path (a unique address from `tag`, or `email`, which may have had mails
 * before), verifies with the mailed token, signs in, and waits until the work the registration left (its audit and
 * events) is done.
 */
export async function person(
  h: Harness,
  tag: string,
  opts: { locale?: Locale; firstName?: string; lastName?: string; email?: string } = {},
): Promise<Person> {
  const email = opts.email ?? uniqueEmail(tag);
  const { locale = 'ja', firstName = '花子', lastName = '佐藤' } = opts;
  const before = (await mailsTo(email)).length;
  const reg = await call(h, 'POST', '/api/auth/register', {
    body: { email, firstName, lastName, password: TEST_PASSWORD, locale },
  });
  if (reg.status !== 200) throw new Error(`register answered ${reg.status}: ${JSON.stringify(reg.body)}`);
  const token = tokenFromMail(await waitForMail(email, before + 1));
  const verified = await call(h, 'POST', '/api/auth/verify-email', { body: { token } });
  if (verified.status !== 200) throw new Error(`verify answered ${verified.status}: ${JSON.stringify(verified.body)}`);
  const { session } = await login(h, email, TEST_PASSWORD);
  await h.server.context.background.idle();
  return { email, userId: session.userId, identity: session.identity };
}

/** `who` joins `owner`'s workspace as `role`: invited by mail (the link's token read from it), then accepted. */
export async function join(h: Harness, owner: Person, who: Person, role: Exclude<WorkspaceRole, 'owner'>) {
  const count = (await mailsTo(who.email)).length;
  const invited = await call(h, 'POST', `/api/workspaces/${owner.userId}/invitations`, {
    identity: owner.identity,
    body: { email: who.email, role },
  });
  if (invited.status !== 200) throw new Error(`invite answered ${invited.status}: ${JSON.stringify(invited.body)}`);
  const token = /\/invitations\/([\w-]+)/.exec((await waitForMail(who.email, count + 1)).text)?.[1];
  if (!token) throw new Error(`no invitation link in the mail to ${who.email}`);
  const accepted = await call(h, 'POST', `/api/invitations/${token}/accept`, { identity: who.identity });
  if (accepted.status !== 200) throw new Error(`accept answered ${accepted.status}: ${JSON.stringify(accepted.body)}`);
}

/** A person for each of `roles` (tagged `<tag>-<role>`), each joined to `owner`'s workspace in that role. */
export async function membersOfEachRole<R extends Exclude<WorkspaceRole, 'owner'>>(
  h: Harness,
  owner: Person,
  tag: string,
  roles: readonly R[],
): Promise<Record<R, Person>> {
  const members = {} as Record<R, Person>;
  for (const role of roles) {
    members[role] = await person(h, `${tag}-${role}`);
    await join(h, owner, members[role], role);
  }
  return members;
}

/** Collects the events published on a subject from now on. */
export function collectEvents(h: Harness, subject: Subject) {
  const events: Array<{ id: string; type: string; data: Json }> = [];
  const sub = h.nats.nc.subscribe(subject, {
    callback: (err, msg) => {
      if (!err) events.push(msg.json());
    },
  });
  return {
    events,
    async waitFor(predicate: (e: { data: Json }) => boolean, count = 1, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      while (events.filter(predicate).length < count) {
        if (Date.now() > until)
          throw new Error(`expected ${count} ${subject} events, got ${events.filter(predicate).length}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return events.filter(predicate);
    },
    stop: () => sub.unsubscribe(),
  };
}
