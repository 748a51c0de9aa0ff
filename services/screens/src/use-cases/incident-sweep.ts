// Incidents and their alerts. A sweep, every INCIDENT_SWEEP_MS on one instance at a time (a lease), judges
// the screens that report (and those with an incident still to settle) with the same rules as the health list, opens
// an incident when a bad state has lasted past the screen's threshold while it was open, ends it when the screen
// recovers or is unpaired, and tells each owner in one event per grouping window (the account service mails it).
import {
  ALERT_MAIL_SCREENS_MAX,
  type EventData,
  type IncidentState,
  dueAlerts,
  pastThreshold,
} from '@pagecast/contracts';
import { nameUuid } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { IncidentDoc, ScreenRecord } from '../data';
import { healthOfScreens, type ScreenHealthView } from './screen-health';

/** A sweep's lease: taken over after this if its holder died mid-sweep. */
export const INCIDENT_SWEEP_LEASE_MS = 60_000;
/** Screens' records read per query. */
const BATCH = 500;
const INCIDENT_STATES: ReadonlySet<string> = new Set<IncidentState>(['offline', 'broken', 'frozen', 'wrong']);
const isIncidentState = (s: string): s is IncidentState => INCIDENT_STATES.has(s);

export interface SweepResult {
  /** false: another instance held the lease (it sweeps; this one did nothing) */
  swept: boolean;
  screens: number;
  opened: number;
  ended: number;
  /** alert events sent (one per owner) */
  alerts: number;
}

/** One sweep, if no other instance is sweeping: the lease is an insert under a unique key (fleet_leases). */
export async function sweepIncidents(ctx: ServiceContext): Promise<SweepResult> {
  const run = await ctx.data.leases.tryLease('incident-sweep', INCIDENT_SWEEP_LEASE_MS, () =>
    sweep(ctx, ctx.clock.ms()),
  );
  return run.held ? { swept: true, ...run.value } : { swept: false, screens: 0, opened: 0, ended: 0, alerts: 0 };
}

const incidentId = (screenId: string, state: IncidentState, since: number) =>
  nameUuid(`${screenId}:${state}:${since}`, 'v5');

async function sweep(ctx: ServiceContext, now: number): Promise<Omit<SweepResult, 'swept'>> {
  const { incidents } = ctx.data;
  const unsettled = await incidents.unsettled();
  const byScreen = new Map<string, IncidentDoc[]>();
  for (const i of unsettled) byScreen.set(i.screenId, [...(byScreen.get(i.screenId) ?? []), i]);
  const ids = [...new Set([...(await ctx.data.statuses.screenIds()), ...byScreen.keys()])];

  const views = new Map<string, ScreenHealthView>();
  const records = new Map<string, ScreenRecord>();
  const unpaired: string[] = [];
  let opened = 0;
  const toEnd: string[] = [];
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const found = await ctx.data.screens.byIds(batch);
    const active = found.filter((s) => s.revokedAt === null);
    const activeIds = new Set(active.map((s) => s._id));
    for (const id of batch) {
      if (!activeIds.has(id)) {
        for (const inc of byScreen.get(id) ?? []) if (inc.endedAt === null) unpaired.push(inc._id);
      }
    }
    if (active.length === 0) continue;
    for (const s of active) records.set(s._id, s);
    const toOpen: IncidentDoc[] = [];
    for (const view of await healthOfScreens(ctx, active, now)) {
      const screenId = view.health.screenId;
      views.set(screenId, view);
      const { state, since } = view.verdict;
      const open = (byScreen.get(screenId) ?? []).filter((inc) => inc.endedAt === null);
      // recovered: neither its own state nor closed (a screen switched off for the night is not recovered)
      for (const inc of open) if (inc.state !== state && state !== 'closed') toEnd.push(inc._id);
      if (
        isIncidentState(state) &&
        since !== null &&
        !open.some((inc) => inc.state === state) &&
        pastThreshold(view.verdict, view.alertAfterMinutes, now, view.openingHours, view.timeZone)
      ) {
        const doc: IncidentDoc = {
          _id: incidentId(screenId, state, since),
          screenId,
          ownerId: view.ownerId,
          state,
          startedAt: new Date(since),
          openedAt: new Date(now),
          endedAt: null,
          endedBy: null,
          alertedAt: null,
          recoveryAlertedAt: null,
          unsettled: true,
        };
        toOpen.push(doc);
      }
    }
    const inserted = await incidents.open(toOpen);
    opened += inserted.length;
    unsettled.push(...inserted);
  }
  const endedAt = new Date(now);
  await incidents.end(toEnd, endedAt, 'recovered');
  await incidents.end(unpaired, endedAt, 'unpaired');
  const ending = new Set(toEnd);
  const gone = new Set(unpaired);

  // what is left to tell: opened and not told, ended (recovered) and not told; never while the screen is closed
  type Pending = { ownerId: string; at: number; incident: IncidentDoc; down: boolean; recovered: boolean };
  const pending: Pending[] = [];
  for (const inc of unsettled) {
    if (gone.has(inc._id) || inc.endedBy === 'unpaired') continue;
    const view = views.get(inc.screenId);
    if (!view || view.verdict.state === 'closed') continue;
    const ended = inc.endedAt !== null || ending.has(inc._id);
    const down = inc.alertedAt === null;
    const recovered = ended && inc.recoveryAlertedAt === null;
    if (!down && !recovered) continue;
    const at = down ? inc.openedAt.getTime() : (inc.endedAt ?? endedAt).getTime();
    pending.push({ ownerId: inc.ownerId, at, incident: { ...inc, endedAt: inc.endedAt ?? endedAt }, down, recovered });
  }
  let alerts = 0;
  for (const [ownerId, list] of dueAlerts(pending, now)) {
    await tell(ctx, ownerId, list, records, now);
    alerts++;
  }
  return { screens: ids.length, opened, ended: toEnd.length + unpaired.length, alerts };
}

/**
 * One event for an owner's due alerts. Its id is made from the incidents and what is told of each, so a sweep that
 * died between the event and the marks sends the same id again (the outbox and JetStream keep one, and the account
 * service mails one per id); the marks come after the event, so a crash never loses an alert.
 */
async function tell(
  ctx: ServiceContext,
  ownerId: string,
  list: Array<{ incident: IncidentDoc; down: boolean; recovered: boolean }>,
  records: ReadonlyMap<string, ScreenRecord>,
  now: number,
): Promise<void> {
  const entry = (inc: IncidentDoc, at: Date) => {
    const record = records.get(inc.screenId);
    return {
      screenId: inc.screenId,
      screenName: record?.name ?? inc.screenId,
      timeZone: record?.timeZone ?? 'UTC',
      state: inc.state,
      at: at.toISOString(),
    };
  };
  const down = list
    .filter((p) => p.down)
    .sort((a, b) => a.incident.startedAt.getTime() - b.incident.startedAt.getTime());
  const recovered = list
    .filter((p) => p.recovered)
    .sort((a, b) => (a.incident.endedAt?.getTime() ?? 0) - (b.incident.endedAt?.getTime() ?? 0));
  const alertId = nameUuid(
    `alert:${list
      .map((p) => `${p.incident._id}:${p.down ? 'd' : ''}${p.recovered ? 'r' : ''}`)
      .sort()
      .join(',')}`,
    'v5',
  );
  const data: EventData<'screens.alert.raised.v1'> = {
    alertId,
    ownerId,
    raisedAt: new Date(now).toISOString(),
    down: down.slice(0, ALERT_MAIL_SCREENS_MAX).map((p) => entry(p.incident, p.incident.startedAt)),
    recovered: recovered
      .slice(0, ALERT_MAIL_SCREENS_MAX)
      .map((p) => entry(p.incident, p.incident.endedAt ?? new Date(now))),
    downTotal: down.length,
    recoveredTotal: recovered.length,
  };
  await ctx.outbox.add('screens.alert.raised.v1', data, { id: alertId });
  await ctx.data.incidents.told(
    down.map((p) => p.incident._id),
    recovered.map((p) => p.incident._id),
    new Date(now),
  );
}
