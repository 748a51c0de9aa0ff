// Audit entries of the fleet's other changes, against the real service: bulk pairing (one entry per screen paired,
// as one pairing makes), the disaster alert rules, the groups' order, and the takeovers the disaster feed starts and
// ends (actor `system:alerts`, no address), each with before and after; a report applied again chains nothing twice.
import { randomUUID } from 'node:crypto';
import type { AlertReport } from '@pagecast/alerts';
import {
  AUDIT_SYSTEM_ACTORS,
  AuditEntry,
  BulkPairingResult,
  defaultAlertRules,
  PairingStarted,
  subjects,
} from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { applyAlertReport } from '../src/use-cases/ingest-alert';
import { call, from, member, pairDisplay, useService } from './helpers';

const svc = useService({ PAIRING_RATE_MAX: '1000', PAIR_ATTEMPT_RATE_MAX: '20' });

const ADDRESS = '192.0.2.45';
const as = (who: { userId: string }, method: string, path: string, body?: unknown) =>
  call(svc, who, method, path, body, from(ADDRESS));

async function entriesOf(workspaceId: string): Promise<AuditEntry[]> {
  const all = await svc.server.context.outbox.entries({ subject: subjects.auditScreens });
  return all.map((e) => AuditEntry.parse(e.data)).filter((e) => e.workspaceId === workspaceId);
}

async function display() {
  const res = await call(svc, null, 'POST', '/api/screens/pairing', undefined, from('10.40.0.2'));
  expect(res.status).toBe(201);
  return PairingStarted.parse(res.body);
}

describe('audit entries of bulk pairing, alert rules and the groups’ order', () => {
  it('bulk pairing makes one screen.paired entry per screen paired, none for a refused code', async () => {
    const owner = member();
    const [a, b] = await Promise.all([display(), display()]);
    const res = await as(owner, 'POST', '/api/screens/bulk-pairing', {
      screens: [
        { code: a.code, name: 'Hall 1' },
        { code: 'ZZZZZ2', name: 'wrong' },
        { code: b.code, name: 'Hall 2' },
      ],
      timeZone: 'Europe/Paris',
    });
    expect(res.status).toBe(200);
    const paired = BulkPairingResult.parse(res.body).results.flatMap((r) => (r.status === 'paired' ? [r] : []));
    expect(paired).toHaveLength(2);
    const entries = (await entriesOf(owner.userId)).filter((e) => e.action === 'screen.paired');
    expect(entries.map((e) => e.object.id).sort()).toEqual(paired.map((p) => p.screenId).sort());
    for (const p of paired) {
      expect(entries.find((e) => e.object.id === p.screenId)).toMatchObject({
        actorUserId: owner.userId,
        address: ADDRESS,
        object: { type: 'screen', id: p.screenId },
        before: null,
        after: { name: p.name, timeZone: 'Europe/Paris', assignment: { kind: 'none' }, groupIds: [] },
      });
    }
  });

  it('alert rules saved make one entry with the rules before (the defaults) and after; the same rules again none', async () => {
    const owner = member();
    const mine = {
      ...defaultAlertRules,
      earthquake: { ...defaultAlertRules.earthquake, minIntensity: '4' },
      drills: true,
    };
    expect((await as(owner, 'PUT', '/api/screens/alert-rules', mine)).status).toBe(200);
    const bad = { ...mine, earthquake: { ...mine.earthquake, minIntensity: '8' } };
    expect((await as(owner, 'PUT', '/api/screens/alert-rules', bad)).status).toBe(400);
    expect((await as(owner, 'PUT', '/api/screens/alert-rules', mine)).status).toBe(200);
    const entries = (await entriesOf(owner.userId)).filter((e) => e.action === 'alert-rules.updated');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorUserId: owner.userId,
      address: ADDRESS,
      object: { type: 'alert-rules', id: owner.userId },
      before: { drills: false, earthquake: { minIntensity: defaultAlertRules.earthquake.minIntensity } },
      after: { drills: true, earthquake: { minIntensity: '4' } },
    });
  });

  it('a new order of the groups makes one entry with the order before and after; the same order again none', async () => {
    const owner = member();
    const g1 = (await as(owner, 'POST', '/api/screens/groups', { name: 'First' })).body as { id: string };
    const g2 = (await as(owner, 'POST', '/api/screens/groups', { name: 'Second' })).body as { id: string };
    const order = () => as(owner, 'PUT', '/api/screens/groups/order', { groupIds: [g2.id, g1.id] });
    expect((await order()).status).toBe(200);
    expect((await as(owner, 'PUT', '/api/screens/groups/order', { groupIds: ['no-such-group'] })).status).toBe(404);
    expect((await order()).status).toBe(200);
    const entries = (await entriesOf(owner.userId)).filter((e) => e.action === 'group.order-set');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorUserId: owner.userId,
      address: ADDRESS,
      object: { type: 'group-order', id: owner.userId },
      before: { groupIds: [g1.id, g2.id] },
      after: { groupIds: [g2.id, g1.id] },
    });
  });
});

describe('audit entries of the disaster feed’s takeovers', () => {
  const quake = (eventId: string, infoType: 'issued' | 'cancelled' = 'issued'): AlertReport => ({
    source: 'jma',
    eventId,
    serial: 1,
    reportId: `jma:${eventId}:1:${infoType}`,
    infoType,
    status: 'actual',
    title: '震源・震度に関する情報',
    kind: 'earthquake',
    reportedAt: new Date().toISOString(),
    headline: '石川県能登地方で強い揺れ',
    earthquake: {
      originTime: new Date(Date.now() - 60_000).toISOString(),
      hypocentreName: '石川県能登地方',
      magnitude: 7.6,
      maxIntensity: '6-',
      areas: [{ code: '390', name: '石川県能登', intensity: '6-' }],
      cities: [{ code: '1720400', name: '輪島市', intensity: '6-' }],
    },
  });

  it('started and ended by the feed: actor system:alerts, no address; applied again or rerun after a crash, chained once', async () => {
    const owner = member();
    const noto = await pairDisplay(svc, owner, 'Noto shop');
    const place = { cityCode: '1720400', tsunamiRegion: null };
    expect((await as(owner, 'PUT', `/api/screens/${noto.screenId}`, { place })).status).toBe(200);
    const ctx = svc.server.context;
    const eventId = `test-${randomUUID()}`;
    const report = quake(eventId);
    const first = await applyAlertReport(ctx, report);
    expect(first.started).toHaveLength(1);
    const takeoverId = first.started[0] as string;
    // redelivered: a duplicate
    expect((await applyAlertReport(ctx, report)).skipped).toBe('duplicate');
    // a crash after the entry, before the fleet document and the report's mark: the report runs again
    await ctx.conn.collection('alert_reports').deleteOne({ _id: `report:${report.reportId}` as never });
    const fleet = await ctx.data.fleet.fleets.get(owner.userId);
    await ctx.data.fleet.fleets.set({ ...fleet, running: fleet.running.filter((t) => t.id !== takeoverId) });
    expect((await applyAlertReport(ctx, report)).started).toEqual([takeoverId]);

    const started = (await entriesOf(owner.userId)).filter((e) => e.object.id === takeoverId);
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      actorUserId: AUDIT_SYSTEM_ACTORS.alerts,
      address: '',
      action: 'takeover.started',
      object: { type: 'takeover', id: takeoverId },
      before: null,
      after: {
        screenIds: [noto.screenId],
        content: { kind: 'alert', eventId },
        endedAt: null,
        alert: { eventId, reportId: report.reportId },
      },
    });

    const cancelled = quake(eventId, 'cancelled');
    expect((await applyAlertReport(ctx, cancelled)).ended).toEqual([takeoverId]);
    const entries = (await entriesOf(owner.userId)).filter((e) => e.object.id === takeoverId);
    expect(entries.map((e) => e.action).sort()).toEqual(['takeover.ended', 'takeover.started']);
    const ended = entries.find((e) => e.action === 'takeover.ended');
    expect(ended).toMatchObject({ actorUserId: AUDIT_SYSTEM_ACTORS.alerts, before: { endedAt: null } });
    expect(typeof ended?.after?.endedAt).toBe('string');
  });
});
