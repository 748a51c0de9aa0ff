// A workspace's settings (approval) against the real servers: who may change them, the database, the screens
// service's key-value copy (written, repaired by a retry of the call, by the keeper and by a start's reconciliation),
// the event and the audit entry.
import { subjects, WORKSPACE_SETTINGS_BUCKET, type WorkspaceSettingsValue } from '@pagecast/contracts';
import { type KV, openKeyValue } from '@pagecast/service-kit';
import { waitFor } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServiceConfig } from '../src/config';
import { createServer } from '../src/server';
import {
  call,
  collectEvents,
  env,
  from,
  type Harness,
  join,
  membersOfEachRole,
  type Person,
  person,
  PUBLIC_URL,
  startHarness,
} from './harness';

let h: Harness;
let kv: KV;
beforeAll(async () => {
  h = await startHarness('account_settings');
  kv = await openKeyValue(h.nats, WORKSPACE_SETTINGS_BUCKET, { ttlMs: 0 });
});
afterAll(async () => {
  await h?.close();
});

const settings = (by: Person, workspaceId: string, body: unknown, address = '203.0.113.50') =>
  call(h, 'PUT', `/api/workspaces/${workspaceId}/settings`, { identity: by.identity, body, headers: from(address) });

const kvValue = async (workspaceId: string): Promise<WorkspaceSettingsValue | null> => {
  const e = await kv.get(workspaceId);
  return e && e.operation === 'PUT' ? e.json<WorkspaceSettingsValue>() : null;
};
const stored = async (workspaceId: string) =>
  (await h.server.context.data.workspaces.find(workspaceId))?.approvalRequired;

const auditRows = async (workspaceId: string) =>
  h.server.context.conn
    .collection<{ seq: number; action: string; actorUserId: string; address: string; before: unknown; after: unknown }>(
      'audit_log',
    )
    .find({ workspaceId, action: 'workspace.updated' })
    .sort({ seq: 1 })
    .toArray();
async function auditRowsAtLeast(workspaceId: string, n: number) {
  await waitFor(`${n} workspace.updated rows`, async () => (await auditRows(workspaceId)).length >= n, 10_000);
  return auditRows(workspaceId);
}

const expectError = (res: { status: number; body: { code?: string } }, status: number, code: string) => {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
};

describe('approval setting', () => {
  it('the owner turns it on and an admin off: the answer, the database, the bucket, the events and the audit log', async () => {
    const owner = await person(h, 'set-owner');
    const admin = await person(h, 'set-admin');
    await join(h, owner, admin, 'admin');
    const ws = owner.userId;
    expect(await kvValue(ws)).toBeNull(); // approval off needs no key
    const events = collectEvents(h, subjects.workspaceUpdated);

    const on = await settings(owner, ws, { approvalRequired: true }, '198.51.100.10');
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body).toEqual({ id: ws, name: '佐藤 花子', ownerId: ws, role: 'owner', approvalRequired: true });
    expect(await stored(ws)).toBe(true);
    expect(await kvValue(ws)).toEqual({ approvalRequired: true, v: 1 });
    const list = await call(h, 'GET', '/api/workspaces', { identity: admin.identity });
    expect(list.body.workspaces.find((w: { id: string }) => w.id === ws)).toMatchObject({
      role: 'admin',
      approvalRequired: true,
    });

    const off = await settings(admin, ws, { approvalRequired: false }, '198.51.100.11');
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: ws, role: 'admin', approvalRequired: false });
    expect(await stored(ws)).toBe(false);
    expect(await kvValue(ws)).toEqual({ approvalRequired: false, v: 1 });

    const published = await events.waitFor((e) => e.data.workspaceId === ws, 2);
    expect(published.map((e) => [e.data.approvalRequired, e.data.updatedBy])).toEqual([
      [true, owner.userId],
      [false, admin.userId],
    ]);
    // the same value again changes nothing: no event, no entry
    expect((await settings(admin, ws, { approvalRequired: false })).status).toBe(200);
    const rows = await auditRowsAtLeast(ws, 2);
    await new Promise((r) => setTimeout(r, 500));
    expect(events.events.filter((e) => e.data.workspaceId === ws)).toHaveLength(2);
    events.stop();
    expect((await auditRows(ws)).map((r) => [r.actorUserId, r.address, r.before, r.after])).toEqual([
      [owner.userId, '198.51.100.10', { approvalRequired: false }, { approvalRequired: true }],
      [admin.userId, '198.51.100.11', { approvalRequired: true }, { approvalRequired: false }],
    ]);
    expect(rows).toHaveLength(2);
  });

  it('an editor, a publisher, a viewer and a stranger are refused and nothing changes', async () => {
    const owner = await person(h, 'set-r-owner');
    const members = await membersOfEachRole(h, owner, 'set-r', ['editor', 'publisher', 'viewer']);
    const stranger = await person(h, 'set-r-stranger');
    const ws = owner.userId;
    const events = collectEvents(h, subjects.workspaceUpdated);
    for (const who of Object.values(members))
      expectError(await settings(who, ws, { approvalRequired: true }), 403, 'FORBIDDEN_ROLE');
    expectError(await settings(stranger, ws, { approvalRequired: true }), 403, 'NOT_A_MEMBER');
    expectError(await settings(owner, ws, { approvalRequired: 'yes' }), 400, 'VALIDATION');
    expectError(await settings(owner, ws, {}), 400, 'VALIDATION');
    await new Promise((r) => setTimeout(r, 500));
    expect(await stored(ws)).toBe(false);
    expect(await kvValue(ws)).toBeNull();
    expect(events.events).toEqual([]);
    events.stop();
    expect(await auditRows(ws)).toEqual([]);
  });
});

describe("the screens service's copy", () => {
  it('a failed copy answers 503 and stays the stricter value; the keeper and a retry of the call make it right', async () => {
    const owner = await person(h, 'set-f-owner');
    const ws = owner.userId;
    const mirror = h.server.context.settings;
    const { put, putIfUnchanged } = mirror;
    const down = () => Promise.reject(new Error('nats down (test)'));
    try {
      // turning on while the bucket cannot be written: refused, nothing changed
      mirror.put = down;
      expectError(await settings(owner, ws, { approvalRequired: true }), 503, 'SERVICE_UNAVAILABLE');
      expect(await stored(ws)).toBe(false);
      expect(await kvValue(ws)).toBeNull();
      mirror.put = put;

      expect((await settings(owner, ws, { approvalRequired: true })).status).toBe(200);
      // turning off while the bucket cannot be written: the database changes, the copy stays "on" (stricter)
      mirror.putIfUnchanged = down;
      expectError(await settings(owner, ws, { approvalRequired: false }), 503, 'SERVICE_UNAVAILABLE');
      expect(await stored(ws)).toBe(false);
      expect(await kvValue(ws)).toEqual({ approvalRequired: true, v: 1 });
      // a retry of the call while it still fails: 503 again, no second change recorded
      expectError(await settings(owner, ws, { approvalRequired: false }), 503, 'SERVICE_UNAVAILABLE');
    } finally {
      mirror.put = put;
      mirror.putIfUnchanged = putIfUnchanged;
    }
    // the keeper retries on its own
    await waitFor('the copy repaired', async () => (await kvValue(ws))?.approvalRequired === false, 10_000);
    await h.server.context.settingsKeeper.settled();
    // and a retry of the call answers 200 with the value
    const again = await settings(owner, ws, { approvalRequired: false });
    expect([again.status, again.body.approvalRequired]).toEqual([200, false]);
    const rows = await auditRowsAtLeast(ws, 2);
    await new Promise((r) => setTimeout(r, 500));
    expect((await auditRows(ws)).map((r) => r.after)).toEqual([
      { approvalRequired: true },
      { approvalRequired: false },
    ]);
    expect(rows).toHaveLength(2);
  });

  it('changes racing each other leave the copy equal to the database', async () => {
    const owner = await person(h, 'set-race-owner');
    const ws = owner.userId;
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => settings(owner, ws, { approvalRequired: (i + round) % 2 === 0 })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      expect((await kvValue(ws))?.approvalRequired ?? false).toBe(await stored(ws));
    }
  });

  it('a call with the value the database holds writes a copy that is wrong', async () => {
    const owner = await person(h, 'set-same-owner');
    const ws = owner.userId;
    expect((await settings(owner, ws, { approvalRequired: true })).status).toBe(200);
    await kv.put(ws, JSON.stringify({ approvalRequired: false, v: 1 }));
    expect((await settings(owner, ws, { approvalRequired: true })).status).toBe(200);
    expect(await kvValue(ws)).toEqual({ approvalRequired: true, v: 1 });
  });

  it('a start puts back the copies of a wiped bucket and corrects wrong ones (the database is the truth)', async () => {
    const on = await person(h, 'set-rec-on');
    const off = await person(h, 'set-rec-off');
    const unreadable = await person(h, 'set-rec-bad');
    expect((await settings(on, on.userId, { approvalRequired: true })).status).toBe(200);
    expect((await settings(unreadable, unreadable.userId, { approvalRequired: true })).status).toBe(200);
    // wiped (no history left of these keys), a stricter value the database does not hold, and one nobody can read
    await kv.purge(on.userId);
    await kv.put(off.userId, JSON.stringify({ approvalRequired: true, v: 1 }));
    await kv.put(unreadable.userId, 'not json');
    expect(await kv.get(on.userId)).toMatchObject({ operation: 'PURGE' });
    const again = await createServer(
      loadServiceConfig({
        ...env,
        PORT: '0',
        BILLING_EVENTS_FROM: 'new',
        AUDIT_EVENTS_FROM: 'new',
        LOG_LEVEL: 'silent',
        MONGO_DB: h.server.context.dbName,
        PUBLIC_URL,
      }),
    );
    try {
      await waitFor(
        'the wiped copy put back',
        async () => (await kvValue(on.userId))?.approvalRequired === true,
        10_000,
      );
      await waitFor('the wrong copy corrected', async () => (await kvValue(off.userId))?.approvalRequired === false);
      await waitFor('the unreadable copy rewritten', async () => {
        const e = await kv.get(unreadable.userId);
        return e?.operation === 'PUT' && e.string() === JSON.stringify({ approvalRequired: true, v: 1 });
      });
    } finally {
      await again.context.background.idle();
      await again.close();
    }
  });
});
