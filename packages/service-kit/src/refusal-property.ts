// The property every service's member routes share: a call that the policy refuses changes nothing. A component test
// starts its service against the test servers, seeds a workspace, and hands this its database, the NATS it publishes
// on and what a refused call must not mention; this draws calls that the caller's role may not make (a route, its path
// parameters from the workspace's real ids or random ones, a body built from the route's schema or random JSON) and
// checks each is answered 403 FORBIDDEN_ROLE while every collection, the events and the mails stay as they were.
import { createHash, randomUUID } from 'node:crypto';
import { type RouteDef, routesFor, type ServiceName, WORKSPACE_ROLES, type WorkspaceRole } from '@pagecast/contracts';
import { type Action, decide } from '@pagecast/policy';
import fc from 'fast-check';
import type mongoose from 'mongoose';
import type { z } from 'zod';
import type { NatsConnection } from './nats';
import { callService, type TestAnswer, testEnv, testSeed } from './testing';

export interface RefusalTarget {
  service: ServiceName;
  /** the service under test */
  baseUrl: string;
  secret: string;
  /** its database: every collection is compared before and after */
  conn: mongoose.Connection;
  /** a connection to the NATS the service publishes on (all subjects are watched) */
  nc: NatsConnection;
  /** the workspace the callers act in (its owner's user id) */
  workspaceId: string;
  /** real ids of the workspace's objects: every path parameter and id-like body field draws from these too */
  ids: string[];
  /**
   * Who calls as which role. Unset: a new person (random id) with the drawn role in the workspace, as the gateway's
   * signed identity names it. Account decides by the stored membership, so its test passes its real members.
   */
  callers?: Partial<Record<WorkspaceRole, { userId: string; sessionId: string }>>;
  /** addresses whose mails are counted before and after (account's members); else mails naming an id of the run */
  mailTo?: string[];
  numRuns: number;
  /** fast-check's seed; default testSeed's (PAGECAST_TEST_SEED, 1 unless set), printed so a failure replays */
  seed?: number;
}

export interface RefusalReport {
  runs: number;
  /** `method path` → how many calls it got */
  routes: Record<string, number>;
  /** calls whose body passed the route's schema */
  validBodies: number;
}

/** `METHOD path` of the routes a role (acting in another's workspace) is refused, with the roles that are. */
export function refusedRoutes(service: ServiceName): Array<{ route: RouteDef; roles: WorkspaceRole[] }> {
  return routesFor(service)
    .filter((route) => route.action !== undefined)
    .map((route) => ({
      route,
      roles: WORKSPACE_ROLES.filter(
        (role) => !decide({ userId: 'someone', workspaceId: 'another', role, action: route.action as Action }).allowed,
      ),
    }))
    .filter(({ roles }) => roles.length > 0);
}

/** Every document of every collection of the database, as JSON, sorted (the order of reading does not count). */
export async function databaseDocuments(conn: mongoose.Connection): Promise<Map<string, string[]>> {
  const db = conn.db;
  if (!db) throw new Error('the connection is not open');
  const out = new Map<string, string[]>();
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
  for (const name of names)
    out.set(name, (await db.collection(name).find({}).toArray()).map((d) => JSON.stringify(d)).sort());
  return out;
}

const naming = (docs: string[], mentions: Set<string>) => docs.filter((d) => [...mentions].some((m) => d.includes(m)));
const digest = (docs: string[]) =>
  `${docs.length}:${createHash('sha256').update(docs.join('\n')).digest('hex').slice(0, 16)}`;

/**
 * The collections whose documents naming one of `mentions` differ between the two readings. Only those: the servers
 * are shared by every test running at the time, and a service takes in the others' events (registrations, files,
 * listings), which change its read models during the run. Everything a call of the run could write names the
 * workspace, the caller, or an id the call carried, and all of these are in `mentions`.
 */
export function changedCollections(
  before: Map<string, string[]>,
  after: Map<string, string[]>,
  mentions: Set<string>,
): string[] {
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names
    .map((name) => {
      const was = naming(before.get(name) ?? [], mentions);
      const is = naming(after.get(name) ?? [], mentions);
      const gone = was.filter((d) => !is.includes(d));
      const added = is.filter((d) => !was.includes(d));
      return { name, was: digest(was), is: digest(is), gone, added };
    })
    .filter(({ was, is }) => was !== is)
    .map(
      ({ name, was, is, gone, added }) =>
        `${name} (${was} → ${is}; was ${gone.slice(0, 2).join(' ')}; is ${added.slice(0, 2).join(' ')})`,
    );
}

/**
 * The mails at maildev to these addresses, or (none given) naming one of `mentions`: the maildev is shared by every
 * test running at the time, so a count of all would count theirs.
 */
async function mailCount(to: string[] | undefined, mentions: Set<string>): Promise<number> {
  const res = await fetch(`${testEnv().MAILDEV_API_URL}/email`);
  const all = (await res.json()) as Array<{ to: Array<{ address: string }> }>;
  if (!to) return all.filter((m) => [...mentions].some((id) => JSON.stringify(m).includes(id))).length;
  const wanted = new Set(to.map((a) => a.toLowerCase()));
  return all.filter((m) => m.to.some((t) => wanted.has(t.address.toLowerCase()))).length;
}

// biome-ignore lint/suspicious/noExplicitAny: zod's internal definitions are read loosely, kind by kind
type Def = any;
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const sampleStrings = [
  'Lobby',
  'x',
  '',
  '地震発生',
  'standard',
  'trial',
  'ja',
  'editor@example.com',
  '2026-12-06T09:00:00.000Z',
  '09:00',
];
const sampleNumbers = [0, 1, 5, 10, 15, 30, 60, 100, 3000, -1, 1.5];

/**
 * Values for a schema: mostly valid ones (each leaf from plausible samples that pass the leaf's own checks, the
 * workspace's ids first for id-like fields), random JSON where the schema is of a kind this does not read.
 */
export function arbitraryOf(schema: z.ZodType, ids: string[], key = ''): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const passing = <T>(values: T[]) => values.filter((v) => schema.safeParse(v).success);
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      const parts: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(shape)) parts[k] = arbitraryOf(v, ids, k);
      const optional = Object.entries(shape)
        .filter(([, v]) => ['optional', 'default'].includes(defOf(v).type))
        .map(([k]) => k);
      const required = Object.keys(shape).filter((k) => !optional.includes(k));
      return fc.record(parts, { requiredKeys: required });
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return arbitraryOf(def.innerType, ids, key);
    case 'pipe':
      return arbitraryOf(def.in, ids, key);
    case 'lazy':
      return arbitraryOf(def.getter(), ids, key);
    case 'array':
      return fc.array(arbitraryOf(def.element, ids, key), { maxLength: 3 });
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map((o) => arbitraryOf(o, ids, key)));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'record':
      return fc.dictionary(fc.constantFrom('a', 'b'), arbitraryOf(def.valueType, ids, key), { maxKeys: 2 });
    case 'string': {
      const idLike = /id$|ids$/i.test(key);
      const samples = passing([...(idLike ? ids : []), ...sampleStrings, ...ids, randomUUID()]);
      return samples.length ? fc.constantFrom(...samples) : fc.string({ maxLength: 20 });
    }
    case 'number':
    case 'int': {
      const samples = passing(sampleNumbers);
      return samples.length ? fc.constantFrom(...samples) : fc.integer();
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * Random JSON as a body: an object or an array (the services' JSON parser answers 400 to a bare string, number or
 * boolean before any route sees it, as it does for bytes that are not JSON).
 */
const randomBody = fc.oneof(fc.object({ maxDepth: 2 }), fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }));

const realOrRandom = (ids: string[]) =>
  ids.length
    ? fc.oneof({ arbitrary: fc.constantFrom(...ids), weight: 3 }, { arbitrary: fc.uuid(), weight: 1 })
    : fc.uuid();

function callable(target: RefusalTarget) {
  return refusedRoutes(target.service).filter(({ roles }) => roles.some((r) => !target.callers || target.callers[r]));
}

/** One call that the caller's role may not make: the route (its index in `routes`), the path's parameters, the body and the role. */
function refusedCall(target: RefusalTarget, routes: ReturnType<typeof callable>) {
  if (!routes.length) throw new Error(`${target.service} has no member route any role is refused`);
  return fc.constantFrom(...routes.keys()).chain((n) => {
    const { route, roles } = routes[n] as (typeof routes)[number];
    const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
    const usable = roles.filter((r) => !target.callers || target.callers[r]);
    return fc.record({
      route: fc.constant(n),
      role: fc.constantFrom(...usable),
      params: fc.tuple(...names.map(() => realOrRandom([target.workspaceId, ...target.ids]))),
      body: route.body
        ? fc.oneof({ arbitrary: arbitraryOf(route.body, target.ids), weight: 3 }, { arbitrary: randomBody, weight: 1 })
        : ['get', 'head'].includes(route.method)
          ? fc.constant(undefined)
          : fc.option(randomBody, { nil: undefined }),
    });
  });
}

/**
 * Waits until what the test's setup set going is out: the service's outbox (its unsent events, collection `outbox`)
 * empty, then a moment for the last publications to arrive, so the run sees none of the setup's events.
 */
async function setupSettled(conn: mongoose.Connection): Promise<void> {
  const db = conn.db;
  if (!db) throw new Error('the connection is not open');
  const until = Date.now() + 20_000;
  while ((await db.collection('outbox').countDocuments({})) > 0) {
    if (Date.now() > until) throw new Error("the setup's events are still in the outbox after 20 s");
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 300));
}

/**
 * Runs the property: `numRuns` refused calls, each answered 403 FORBIDDEN_ROLE, then every collection of the
 * database, the events published (any subject, any message naming the workspace or a caller) and the mails are as
 * they were before the first.
 */
export async function refusalsChangeNothing(target: RefusalTarget): Promise<RefusalReport> {
  const report: RefusalReport = { runs: 0, routes: {}, validBodies: 0 };
  await setupSettled(target.conn);
  const mentions = new Set<string>([target.workspaceId, ...target.ids]);
  const seen: string[] = [];
  const sub = target.nc.subscribe('>', {
    callback: (err, msg) => {
      if (err || msg.subject.startsWith('$JS.API.') || msg.subject.startsWith('_INBOX.')) return;
      const text = new TextDecoder().decode(msg.data);
      for (const m of mentions) if (text.includes(m)) seen.push(`${msg.subject}: ${text.slice(0, 300)}`);
    },
  });
  await target.nc.flush();
  const mailsBefore = await mailCount(target.mailTo, mentions);
  const before = await databaseDocuments(target.conn);

  const candidates = callable(target);
  await fc.assert(
    fc.asyncProperty(refusedCall(target, candidates), async ({ route: n, role, params, body }) => {
      const route = (candidates[n] as (typeof candidates)[number]).route;
      let i = 0;
      const path = route.path.replace(/:(\w+)/g, () => encodeURIComponent(String(params[i++])));
      for (const p of params) mentions.add(String(p));
      const caller = target.callers?.[role] ?? { userId: `u-${randomUUID()}`, sessionId: undefined };
      mentions.add(caller.userId);
      const res: TestAnswer = await callService(
        target.baseUrl,
        target.secret,
        { ...caller, workspaceId: target.workspaceId, role },
        route.method.toUpperCase(),
        path,
        body,
        route.rawBody ? { 'content-type': route.rawBody } : {},
      );
      const key = `${route.method.toUpperCase()} ${route.path}`;
      report.routes[key] = (report.routes[key] ?? 0) + 1;
      report.runs++;
      if (route.body?.safeParse(body).success) report.validBodies++;
      const what = `${role} ${route.method.toUpperCase()} ${path} ${JSON.stringify(body)?.slice(0, 200)}`;
      if (route.method === 'head') {
        if (res.status !== 403) throw new Error(`${what}: answered ${res.status}, not 403`);
        return;
      }
      if (res.status !== 403 || res.body?.code !== 'FORBIDDEN_ROLE')
        throw new Error(`${what}: answered ${res.status} ${res.text.slice(0, 200)}, not 403 FORBIDDEN_ROLE`);
    }),
    { numRuns: target.numRuns, seed: target.seed ?? testSeed(`refusals of ${target.service}`).seed },
  );

  // anything a call set going (an event, a mail) has had time to land
  await new Promise((r) => setTimeout(r, 500));
  await target.nc.flush();
  sub.unsubscribe();
  const changed = changedCollections(before, await databaseDocuments(target.conn), mentions);
  if (changed.length) throw new Error(`refused calls changed collections: ${changed.join(', ')}`);
  if (seen.length) throw new Error(`refused calls published:\n${seen.join('\n')}`);
  const mailsAfter = await mailCount(target.mailTo, mentions);
  if (mailsAfter !== mailsBefore) throw new Error(`refused calls sent ${mailsAfter - mailsBefore} mails`);
  return report;
}
