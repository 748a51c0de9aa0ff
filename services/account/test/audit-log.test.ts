// The audit log against the real account service (FerretDB, NATS): entries published on the AUDIT stream are chained
// per workspace, a redelivered entry is kept once, the owner and admins read and export them, others are refused,
// and the verify command names a row broken by hand.
import { createHash, randomUUID } from 'node:crypto';
import { type AuditEntry, AuditPage, IDENTITY_HEADER, subjects } from '@pagecast/contracts';
import { createOutbox, GENESIS_HASH, publishAudit, signIdentityHeader, verifyChain } from '@pagecast/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditVerify } from '../src/cli/audit-verify';
import { chainedRow, createAuditLogRepository } from '../src/data';
import {
  call,
  env,
  from,
  type Harness,
  login,
  type Session,
  startHarness,
  uniqueEmail,
  verifiedMember,
  waitForMail,
} from './harness';

let h: Harness;
let owner: Session;
let admin: Session;
let viewer: Session;
let outsider: Session;

const asMember = (s: Session, workspaceId: string, role: 'admin' | 'viewer') => ({
  [IDENTITY_HEADER]: signIdentityHeader(
    { userId: s.userId, sessionId: s.sessionId, workspaceId, role },
    env.INTERNAL_SECRET,
  ),
});

function entry(workspaceId: string, over: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: randomUUID(),
    workspaceId,
    actorUserId: workspaceId,
    address: '203.0.113.7',
    action: 'file.updated',
    object: { type: 'file', id: 'f1' },
    before: { title: 'Menu, winter', tags: [] },
    after: { title: 'Menu "spring"', tags: ['food'] },
    at: new Date().toISOString(),
    ...over,
  };
}

/** Publishes as a service's outbox does; `msgID` other than the entry's id stands for a redelivery past the window. */
async function publish(e: AuditEntry, subject: string = subjects.auditFiles, msgID = e.id): Promise<void> {
  const envelope = { id: e.id, type: subject, occurredAt: e.at, data: e };
  await h.nats.js.publish(subject, JSON.stringify(envelope), { msgID });
}

async function rowsOf(workspaceId: string, count: number) {
  const until = Date.now() + 10_000;
  for (;;) {
    const rows = await h.server.context.conn
      .collection<{ _id: string; id: string; seq: number; prevHash: string; hash: string }>('audit_log')
      .find({ workspaceId })
      .sort({ seq: 1 })
      .toArray();
    if (rows.length >= count) return rows;
    if (Date.now() > until) throw new Error(`${rows.length} of ${count} audit rows of ${workspaceId}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  h = await startHarness('audit');
  const [o, a, v, x] = await Promise.all([
    verifiedMember(h, 'audit-owner'),
    verifiedMember(h, 'audit-admin'),
    verifiedMember(h, 'audit-viewer'),
    verifiedMember(h, 'audit-stranger'),
  ]);
  owner = (await login(h, o.email, o.password)).session;
  admin = (await login(h, a.email, a.password)).session;
  viewer = (await login(h, v.email, v.password)).session;
  outsider = (await login(h, x.email, x.password)).session;
});

afterAll(async () => {
  await h?.close();
});

describe('chaining', () => {
  it('chains each workspace apart, seq 1, 2, ..., each row naming the hash before it', async () => {
    const ws = randomUUID();
    const other = randomUUID();
    const first = entry(ws);
    await publish(first);
    await publish(entry(other), subjects.auditScreens);
    await publish(entry(ws, { action: 'playlist.created', object: { type: 'playlist', id: 'p1' }, before: null }));
    const rows = await rowsOf(ws, 2);
    expect(rows.map((r) => r.seq)).toEqual([1, 2]);
    expect(rows[0]?.id).toBe(first.id);
    expect(rows[0]?._id).toBe(`${ws}:1`);
    expect(rows[0]?.prevHash).toBe(GENESIS_HASH);
    expect(rows[1]?.prevHash).toBe(rows[0]?.hash);
    expect((await rowsOf(other, 1)).map((r) => r.seq)).toEqual([1]);
  });

  it('keeps a redelivered entry once', async () => {
    const ws = randomUUID();
    const e = entry(ws);
    await publish(e);
    await publish(e, subjects.auditFiles, randomUUID()); // the same entry, past JetStream's de-duplication
    await publish(entry(ws));
    const rows = await rowsOf(ws, 2);
    await new Promise((r) => setTimeout(r, 300));
    expect((await rowsOf(ws, 2)).length).toBe(2);
    expect(rows.filter((r) => r.id === e.id)).toHaveLength(1);
  });

  it('two writers (replicas) each remembering a head of their own still make one chain', async () => {
    const ws = randomUUID();
    const a = createAuditLogRepository(h.server.context.conn);
    const b = createAuditLogRepository(h.server.context.conn);
    expect(await a.append(entry(ws))).toBe('recorded');
    expect(await b.append(entry(ws))).toBe('recorded');
    const third = entry(ws);
    expect(await a.append(third)).toBe('recorded'); // a's head (seq 1) is stale: its insert at 2 is refused, read again
    expect(await b.append(third)).toBe('duplicate');
    const rows: Parameters<typeof chainedRow>[0][] = [];
    for await (const row of a.chain(ws)) rows.push(row);
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(verifyChain(rows.map(chainedRow))).toMatchObject({ ok: true, length: 3 });
    // b last wrote seq 2; its reads still see a's newer row
    expect((await b.page({ workspaceId: ws }, 10)).map((r) => r.seq)).toEqual([3, 2, 1]);
  });

  it('an entry whose row was written but whose id record was not (a crash between) is not chained twice', async () => {
    const ws = randomUUID();
    const e = entry(ws);
    expect(await createAuditLogRepository(h.server.context.conn).append(e)).toBe('recorded');
    await h.server.context.conn.collection('audit_entry_ids').deleteOne({ _id: e.id as never });
    // a process that remembers no head, as after the restart
    expect(await createAuditLogRepository(h.server.context.conn).append(e)).toBe('duplicate');
    expect((await rowsOf(ws, 1)).map((r) => r.seq)).toEqual([1]);
  });

  it('pages and filters past one read batch (500 rows), newest first', async () => {
    const ws = randomUUID();
    const repo = createAuditLogRepository(h.server.context.conn);
    for (let i = 1; i <= 620; i++) {
      await repo.append(entry(ws, { action: i % 100 === 0 ? 'file.deleted' : 'file.updated' }));
    }
    const deleted = await repo.page({ workspaceId: ws, action: 'file.deleted' }, 4);
    expect(deleted.map((r) => r.seq)).toEqual([600, 500, 400, 300]);
    const older = await repo.page({ workspaceId: ws, action: 'file.deleted', beforeSeq: 300 }, 4);
    expect(older.map((r) => r.seq)).toEqual([200, 100]);
    const newest = await repo.page({ workspaceId: ws }, 3);
    expect(newest.map((r) => r.seq)).toEqual([620, 619, 618]);
    let streamed = 0;
    for await (const _ of repo.stream({ workspaceId: ws })) streamed++;
    expect(streamed).toBe(620);
  });

  it("a service's change published through its outbox, then again by a rerun of the step, is chained once", async () => {
    const ws = randomUUID();
    // a service's outbox (its own collection in this test's database), as file-conversion and screens publish
    const outbox = createOutbox(h.server.context.conn, h.nats.js, h.server.context.logger);
    const change = {
      workspaceId: ws,
      actor: { userId: ws, address: '192.0.2.1' },
      action: 'playlist.items-saved' as const,
      object: { type: 'playlist' as const, id: 'p9' },
      before: { items: [], version: 1 },
      after: { items: [{ fileId: 'f1' }], version: 2 },
    };
    const first = await publishAudit(outbox, 'files', change, new Date());
    const rerun = await publishAudit(outbox, 'files', change, new Date(Date.now() + 1000));
    expect(rerun.id).toBe(first.id);
    await publish(entry(ws)); // a later entry: once it is chained, the earlier one has been handled
    const rows = await rowsOf(ws, 2);
    expect(rows.map((r) => [r.seq, r.id])).toEqual([
      [1, first.id],
      [2, expect.any(String)],
    ]);
  });
});

describe('reading', () => {
  // A workspace of its own that the owner owns (an owner row, as a team's workspace has), not the owner's personal
  // one: the test servers are shared, and another suite's billing service that hears this owner's registration
  // chains its entries (a trial begun, a trial ended) into the personal workspace at any moment.
  const ws = randomUUID();
  beforeAll(async () => {
    const { workspaces } = h.server.context.data;
    await workspaces.addMember({
      workspaceId: ws,
      userId: owner.userId,
      role: 'owner',
      addedAt: new Date(),
      addedBy: owner.userId,
    });
    // one at a time, each chained before the next: seq 1 a file, 2 a playlist, 3 the admin's screen change
    const entries: Array<[AuditEntry, string]> = [
      [entry(ws, { actorUserId: owner.userId }), subjects.auditFiles],
      [
        entry(ws, {
          actorUserId: owner.userId,
          action: 'playlist.created',
          object: { type: 'playlist', id: 'p1' },
          before: null,
        }),
        subjects.auditFiles,
      ],
      [
        entry(ws, {
          actorUserId: admin.userId,
          action: 'screen.updated',
          object: { type: 'screen', id: 's1' },
          before: { name: 'Lobby', rotation: 0 },
          after: { name: 'Lobby', rotation: 90 },
        }),
        subjects.auditScreens,
      ],
    ];
    for (const [i, [e, subject]] of entries.entries()) {
      await publish(e, subject);
      await rowsOf(ws, i + 1);
    }
  });

  it('gives the owner the log newest first, with the difference, in pages', async () => {
    const first = await call(h, 'GET', `/api/workspaces/${ws}/audit?limit=2`, { identity: owner.identity });
    expect(first.status).toBe(200);
    const page = AuditPage.parse(first.body);
    expect(page.entries.map((e) => e.seq)).toEqual([3, 2]);
    expect(page.entries[0]?.diff).toEqual([{ path: ['rotation'], before: 0, after: 90 }]);
    expect(page.nextCursor).toBe('2');
    const next = AuditPage.parse(
      (await call(h, 'GET', `/api/workspaces/${ws}/audit?limit=2&cursor=2`, { identity: owner.identity })).body,
    );
    expect(next.entries.map((e) => e.seq)).toEqual([1]);
    expect(next.nextCursor).toBeNull();
  });

  it('filters by actor, action and object type', async () => {
    const byActor = AuditPage.parse(
      (await call(h, 'GET', `/api/workspaces/${ws}/audit?actor=${admin.userId}`, { identity: owner.identity })).body,
    );
    expect(byActor.entries.map((e) => e.action)).toEqual(['screen.updated']);
    const byType = AuditPage.parse(
      (await call(h, 'GET', `/api/workspaces/${ws}/audit?objectType=file`, { identity: owner.identity })).body,
    );
    expect(byType.entries.map((e) => e.seq)).toEqual([1]);
    const future = new Date(Date.now() + 3600_000).toISOString();
    const later = new Date(Date.now() + 7200_000).toISOString();
    const span = `from=${encodeURIComponent(future)}&to=${encodeURIComponent(later)}`;
    const none = await call(h, 'GET', `/api/workspaces/${ws}/audit?${span}`, {
      identity: owner.identity,
    });
    expect(AuditPage.parse(none.body).entries).toEqual([]);
    const bad = await call(h, 'GET', `/api/workspaces/${ws}/audit?action=file.renamed`, { identity: owner.identity });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION');
  });

  it('lets an admin of the workspace read by their stored role, and refuses a viewer and a stranger', async () => {
    const { workspaces } = h.server.context.data;
    const added = { workspaceId: ws, addedAt: new Date(), addedBy: owner.userId };
    // what accepting an invitation stores (test/workspaces.test.ts covers the invitation itself)
    await workspaces.addMember({ ...added, userId: admin.userId, role: 'admin' });
    await workspaces.addMember({ ...added, userId: viewer.userId, role: 'viewer' });
    const asAdmin = await call(h, 'GET', `/api/workspaces/${ws}/audit`, { headers: asMember(admin, ws, 'admin') });
    expect(asAdmin.status).toBe(200);
    const csv = await call(h, 'GET', `/api/workspaces/${ws}/audit.csv`, { identity: admin.identity });
    expect(csv.status).toBe(200);
    // a viewer is refused even when a header claims more: the stored role decides
    const asViewer = await call(h, 'GET', `/api/workspaces/${ws}/audit`, { headers: asMember(viewer, ws, 'admin') });
    expect([asViewer.status, asViewer.body.code]).toEqual([403, 'FORBIDDEN_ROLE']);
    const stranger = await call(h, 'GET', `/api/workspaces/${ws}/audit.csv`, { identity: outsider.identity });
    expect([stranger.status, stranger.body.code]).toEqual([403, 'NOT_A_MEMBER']);
    const anonymous = await call(h, 'GET', `/api/workspaces/${ws}/audit`);
    expect(anonymous.status).toBe(401);
  });

  it('exports a filter as RFC 4180 CSV: a header row, before, after and the difference as JSON', async () => {
    const res = await fetch(`${h.url}/api/workspaces/${ws}/audit.csv?objectType=file`, {
      headers: { [IDENTITY_HEADER]: signIdentityHeader(owner.identity, env.INTERNAL_SECRET) },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = await res.text();
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('seq,at,actorUserId,address,action,objectType,objectId,before,after,diff,hash');
    expect(lines).toHaveLength(3); // header, the one file entry, and the empty string after the last CRLF
    expect(lines[2]).toBe('');
    // the JSON cells are quoted, their quotes doubled
    expect(lines[1]).toContain('"{""tags"":[],""title"":""Menu, winter""}"');
    expect(lines[1]).toContain('""after"":""Menu \\""spring\\""""');
    expect(lines[1]?.startsWith('1,')).toBe(true);
  });
});

describe("account's own changes", () => {
  it('a login, right or wrong, is no change: it makes no audit entry', async () => {
    const m = await verifiedMember(h, 'audit-login');
    const published = async () => (await h.server.context.outbox.entries({ subject: subjects.auditAccount })).length;
    const before = await published();
    const { session } = await login(h, m.email, m.password);
    const wrong = await call(h, 'POST', '/api/auth/local-login', {
      body: { email: m.email, password: 'not it at all' },
    });
    expect(wrong.status).toBe(401);
    expect(await published()).toBe(before);
    // billing's entries (a plan begun on registration, by another suite's billing on the shared servers) are not a login's
    const rows = await h.server.context.conn
      .collection('audit_log')
      .countDocuments({ workspaceId: session.userId, action: { $not: /^(plan|points)\./ } });
    expect(rows).toBe(0);
  });

  it('a role change makes exactly one chained entry with the role before and after; a refused one none', async () => {
    const ws = owner.userId;
    const { workspaces } = h.server.context.data;
    const [m] = await Promise.all([verifiedMember(h, 'audit-member')]);
    const member = (await login(h, m.email, m.password)).session;
    await workspaces.addMember({
      workspaceId: ws,
      userId: member.userId,
      role: 'viewer',
      addedAt: new Date(),
      addedBy: ws,
    });
    const about = () =>
      h.server.context.conn
        .collection<{ seq: number; action: string; before: unknown; after: unknown; address: string }>('audit_log')
        .find({ workspaceId: ws, 'object.id': member.userId })
        .toArray();

    // refused: the member may not change roles (a viewer), nothing is written or recorded
    const refused = await call(h, 'PATCH', `/api/workspaces/${ws}/members/${member.userId}`, {
      identity: member.identity,
      body: { role: 'admin' },
      headers: from('198.51.100.77'),
    });
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN_ROLE']);

    const changed = await call(h, 'PATCH', `/api/workspaces/${ws}/members/${member.userId}`, {
      identity: owner.identity,
      body: { role: 'editor' },
      headers: from('198.51.100.78'),
    });
    expect(changed.status).toBe(200);
    const until = Date.now() + 10_000;
    while ((await about()).length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    const rows = await about();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'member.updated',
      address: '198.51.100.78',
      before: { role: 'viewer' },
      after: { role: 'editor' },
    });
    const out: string[] = [];
    const verifyEnv = { MONGO_URL: env.MONGO_URL, MONGO_DB: h.server.context.dbName };
    expect(await auditVerify(['--workspace', ws], verifyEnv, (l) => out.push(l))).toBe(0);
  });
});

describe('invitations in the audit log', () => {
  it('an invitation created and revoked makes one entry each, with neither the token nor its hash', async () => {
    const ws = owner.userId;
    const email = uniqueEmail('audit-invitee');
    const created = await call(h, 'POST', `/api/workspaces/${ws}/invitations`, {
      identity: owner.identity,
      body: { email, role: 'editor', language: 'fr' },
      headers: from('198.51.100.90'),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.id as string;
    const token = /\/invitations\/([\w-]+)/.exec((await waitForMail(email)).text)?.[1] as string;
    const hash = createHash('sha256').update(token).digest();
    const revoked = await call(h, 'DELETE', `/api/workspaces/${ws}/invitations/${id}`, {
      identity: owner.identity,
      headers: from('198.51.100.91'),
    });
    expect(revoked.status).toBe(200);
    // refused: revoked already, nothing recorded
    const again = await call(h, 'DELETE', `/api/workspaces/${ws}/invitations/${id}`, { identity: owner.identity });
    expect(again.status).toBe(404);

    const about = () =>
      h.server.context.conn
        .collection<{ seq: number; action: string; address: string; before: unknown; after: unknown }>('audit_log')
        .find({ workspaceId: ws, 'object.type': 'invitation', 'object.id': id })
        .sort({ seq: 1 })
        .toArray();
    const until = Date.now() + 10_000;
    while ((await about()).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    const rows = await about();
    const stored = await h.server.context.data.workspaces.invitation(ws, id);
    const snapshot = {
      email,
      role: 'editor',
      language: 'fr',
      invitedBy: owner.userId,
      createdAt: stored?.createdAt.toISOString(),
      expiresAt: stored?.expiresAt.toISOString(),
      revokedAt: null,
    };
    expect(rows.map((r) => [r.action, r.address, r.before, r.after])).toEqual([
      ['invitation.created', '198.51.100.90', null, snapshot],
      ['invitation.revoked', '198.51.100.91', snapshot, { ...snapshot, revokedAt: stored?.revokedAt?.toISOString() }],
    ]);
    const text = JSON.stringify(rows);
    for (const secret of [token, hash.toString('hex'), hash.toString('base64url'), stored?.tokenHash as string])
      expect(text).not.toContain(secret);
  });
});

describe('npm run audit:verify', () => {
  it('says OK for chains that hold, and names the first row broken by hand (exit 1)', async () => {
    const ws = randomUUID();
    for (let i = 0; i < 3; i++) await publish(entry(ws, { object: { type: 'file', id: `f${i}` } }));
    await rowsOf(ws, 3);
    const out: string[] = [];
    const verifyEnv = { MONGO_URL: env.MONGO_URL, MONGO_DB: h.server.context.dbName };
    expect(await auditVerify(['--workspace', ws], verifyEnv, (l) => out.push(l))).toBe(0);
    expect(out[0]).toMatch(new RegExp(`^${ws}\\t3 entries\\tOK\\thead [0-9a-f]{64}$`));

    // by hand, past every route: nothing in the product can do this
    await h.server.context.conn
      .collection('audit_log')
      .updateOne({ workspaceId: ws, seq: 2 }, { $set: { 'after.title': 'forged' } });
    out.length = 0;
    expect(await auditVerify([], verifyEnv, (l) => out.push(l))).toBe(1);
    const line = out.find((l) => l.startsWith(ws));
    expect(line).toMatch(/BROKEN at seq 2 \(position 2, entry [0-9a-f-]{36}\): hash/);
    expect(out.at(-1)).toMatch(/workspace\(s\), 1 broken$/);
  });
});
