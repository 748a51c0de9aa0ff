import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { WorkspaceRole } from '@pagecast/contracts';
import { signIdentityHeader } from '@pagecast/service-kit';
import { callService, publishEvent, testEnv, uniqueName, waitFor as kitWaitFor } from '@pagecast/service-kit/testing';
import { loadServiceConfig } from '../src/config';
import { createServer, type Server } from '../src/server';
import type { ServiceSettings } from '../src/config';

export { publishEvent };

/** A JSON answer: its shape is what the assertions check. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
export type Json = any;

export const corpus = process.env.PAGECAST_CORPUS ?? '/work/shared/corpus';

export interface TestService {
  server: Server;
  env: Record<string, string>;
  settings: Partial<ServiceSettings>;
  close(): Promise<void>;
}

/**
 * The real service in-process against the test servers, with its own database, bucket and read-model durables,
 * so runs do not see each other's data. `share` starts a second process-like instance on the same data.
 */
export async function startService(
  opts: { settings?: Partial<ServiceSettings>; share?: TestService } = {},
): Promise<TestService> {
  const env: Record<string, string> = opts.share?.env ?? {
    ...(testEnv() as unknown as Record<string, string>),
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    MONGO_DB: uniqueName('fc_test').replace(/-/g, '_'),
    S3_BUCKET: uniqueName('fc-test'),
    // the displays' socket reads of this instance alone (another test's service on the same NATS answers its own)
    DEVICE_READ_SUBJECT_PREFIX: `${uniqueName('fc-test')}.device`,
  };
  const settings: Partial<ServiceSettings> = {
    CONSUMER_PREFIX: opts.share?.settings.CONSUMER_PREFIX ?? uniqueName('fc-test'),
    // its own partition of the shared work queue: another stack on the same NATS never takes these jobs
    CONVERSION_QUEUE: opts.share?.settings.CONVERSION_QUEUE ?? uniqueName('fcq'),
    EVENTS_DELIVER: 'new',
    CONVERSION_ROLE: 'all',
    ...opts.settings,
  };
  const server = await createServer(loadServiceConfig(env), { settings });
  return {
    server,
    env,
    settings,
    async close() {
      await server.close();
    },
  };
}

/** Drops what a run made: database, bucket (with its objects), durables. */
export async function destroyService(svc: TestService): Promise<void> {
  const { context } = svc.server;
  const { client, bucket } = context.s3;
  const names: string[] = [];
  for await (const o of client.listObjectsV2(bucket, '', true)) if (o.name) names.push(o.name);
  if (names.length) await client.removeObjects(bucket, names);
  await client.removeBucket(bucket).catch(() => {});
  const prefix = svc.settings.CONSUMER_PREFIX;
  for (const [stream, suffix] of [
    ['ACCOUNT', 'account'],
    ['BILLING', 'billing'],
    ['MARKETPLACE', 'marketplace'],
    ['SCREENS', 'screens'],
  ] as const) {
    await context.nats.jsm.consumers.delete(stream, `${prefix}-${suffix}`).catch(() => {});
  }
  // dropped once its writers (workers, consumers, outbox relay) have stopped
  await svc.server.close({ dropDatabase: true });
}

/** A member: their user id alone (acting in their own workspace), or acting in `workspaceId` with `role`. */
export type Member = string | { userId: string; workspaceId: string; role: WorkspaceRole };
const asCaller = (who: Member) => (typeof who === 'string' ? { userId: who } : who);

export function identityHeaders(svc: TestService, who: Member): Record<string, string> {
  const caller = asCaller(who);
  return {
    'x-pagecast-identity': signIdentityHeader(
      { ...caller, sessionId: `s-${caller.userId}` },
      svc.env.INTERNAL_SECRET ?? '',
    ),
  };
}

/** A call as the gateway would pass it: signed identity of `who` (none when undefined). */
export async function call(
  svc: TestService,
  who: Member | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Json; headers: Headers }> {
  return callService(svc.server.url, svc.env.INTERNAL_SECRET ?? '', who ? asCaller(who) : null, method, path, body);
}

export async function fileBytes(path: string): Promise<{ bytes: Buffer; name: string }> {
  return { bytes: await readFile(path), name: basename(path) };
}

/** POST /api/files/upload as the browser sends it: multipart, the file in the field `pdf`. */
export async function upload(
  svc: TestService,
  userId: Member,
  file: { bytes: Buffer; name: string } | undefined,
  fields: Record<string, string | string[]> = {},
) {
  const form = new FormData();
  if (file) form.append('pdf', new Blob([new Uint8Array(file.bytes)]), file.name);
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
  const res = await fetch(`${svc.server.url}/api/files/upload`, {
    method: 'POST',
    headers: identityHeaders(svc, userId),
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** The kit's waitFor with a longer default: conversions take seconds. */
export function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 60_000,
  everyMs = 50,
): Promise<T> {
  return kitWaitFor(what, probe, timeoutMs, everyMs);
}

/** Waits until a file leaves processing; returns it. */
export async function waitConverted(svc: TestService, userId: string, fileId: string, timeoutMs = 90_000) {
  return waitFor(
    `file ${fileId} converted`,
    async () => {
      const r = await call(svc, userId, 'GET', `/api/files/${fileId}`);
      return r.status === 200 && r.body.status !== 'processing' ? r.body : undefined;
    },
    timeoutMs,
    200,
  );
}

export async function objectNames(svc: TestService, prefix = ''): Promise<string[]> {
  const { client, bucket } = svc.server.context.s3;
  const names: string[] = [];
  for await (const o of client.listObjectsV2(bucket, prefix, true)) if (o.name) names.push(o.name);
  return names.sort();
}

export const newUser = () => uniqueName('user');

/** A PDF of the corpus (`pdf/<name>`) uploaded as `userId` and converted (its pages there to read): its id. */
export async function convertedPdf(svc: TestService, userId: string, title: string, pdf: string): Promise<string> {
  const up = await upload(svc, userId, await fileBytes(join(corpus, 'pdf', pdf)), { title });
  if (up.status !== 200) throw new Error(`upload of ${pdf} answered ${up.status}: ${JSON.stringify(up.body)}`);
  const converted = await waitConverted(svc, userId, up.body.id as string);
  if (!(converted.pageCount > 0)) throw new Error(`${pdf} did not convert: ${converted.status}`);
  return up.body.id as string;
}
