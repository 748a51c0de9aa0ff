// Disaster reports from the JMA feed (or CAP) take over the screens they concern: parse, de-duplicate by the
// report's id, and for each member with screens placed where it matters start (or replace, or end) takeovers aimed at
// exactly those screens, logged as started by the feed with the report's id; the member is told by e-mail.
import { type AlertReport, AlertParseError, parseCapAlert, parseJmaReport } from '@pagecast/alerts';
import {
  ALERT_MAIL_SCREENS_MAX,
  type AlertRules,
  defaultAlertRules,
  type EventData,
  type ScreenPlace,
  type TakeoverAlert,
} from '@pagecast/contracts';
import { isDuplicateKeyError, nameUuid } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { RunningTakeover, ScreenRecord, TakeoverDoc } from '../data';
import {
  alertEndsAt,
  alertKindOf,
  alertMatch,
  contentOfTakeover,
  factsKey,
  orderGroups,
  placeOf,
  ruleOf,
  stillRunning,
} from '../domain';
import { ALERTS_ACTOR, auditScreensChange, takeoverAuditSnapshot } from '../events/audit';
import { FEED } from './feed';
import { announceFleetChange, fileUsable } from './fleet-common';
import { serialByOwner } from './fleet-lease';

/** JMA's reports are `<Report>`; CAP 1.2 alerts are `<alert>` (any namespace prefix). */
export function parseAlertXml(xml: string): AlertReport {
  const root = /<(?:[\w-]+:)?(Report|alert)[\s>]/.exec(xml.replace(/<\?xml[^>]*\?>/, ''));
  return root?.[1] === 'alert' ? parseCapAlert(xml) : parseJmaReport(xml);
}

export interface AlertOutcome {
  reportId: string | null;
  /** already applied (the same report again), or not one this service acts on (unparseable, unsupported) */
  skipped: 'duplicate' | 'invalid' | null;
  started: string[];
  ended: string[];
}

/** The raw bytes of one stream message: a report this parser refuses is logged and dropped, never retried. */
export async function ingestAlertXml(ctx: ServiceContext, xml: string): Promise<AlertOutcome> {
  let report: AlertReport;
  try {
    report = parseAlertXml(xml);
  } catch (err) {
    if (!(err instanceof AlertParseError)) throw err;
    ctx.logger.warn({ code: err.code, err }, 'alert report refused');
    return { reportId: null, skipped: 'invalid', started: [], ended: [] };
  }
  return applyAlertReport(ctx, report);
}

interface Placed {
  screen: ScreenRecord;
  place: NonNullable<ScreenPlace>;
}

/** Every active screen with a place (its own, or its first group's in the member's order): memory, no query. */
async function placedScreens(ctx: ServiceContext): Promise<Placed[]> {
  const screens = ctx.data.view.activeScreens() ?? (await ctx.data.screens.allActive());
  const out: Placed[] = [];
  for (const screen of screens) {
    let place = screen.place ?? null;
    if (!place && (screen.groupIds ?? []).length > 0) {
      const [groups, fleet] = await Promise.all([
        ctx.data.view.groups(screen.groupIds ?? []),
        ctx.data.view.fleet(screen.ownerId),
      ]);
      place = placeOf(null, orderGroups(groups, fleet.order));
    }
    if (place) out.push({ screen, place });
  }
  return out;
}

export async function applyAlertReport(ctx: ServiceContext, report: AlertReport): Promise<AlertOutcome> {
  const outcome: AlertOutcome = { reportId: report.reportId, skipped: null, started: [], ended: [] };
  if (await ctx.data.alerts.reports.seen(report.reportId)) return { ...outcome, skipped: 'duplicate' };
  const kind = alertKindOf(report);
  if (kind) {
    const placed = report.infoType === 'cancelled' ? [] : await placedScreens(ctx);
    const byOwner = new Map<string, Placed[]>();
    for (const p of placed) byOwner.set(p.screen.ownerId, [...(byOwner.get(p.screen.ownerId) ?? []), p]);
    // members whose takeovers of this event are running (a 取消 or a later report ends or replaces them)
    for (const owner of await ctx.data.fleet.takeovers.ownersOfAlert(report.eventId)) {
      if (!byOwner.has(owner)) byOwner.set(owner, []);
    }
    const saved = await ctx.data.alerts.rules.ofOwners([...byOwner.keys()]);
    for (const [ownerId, screens] of byOwner) {
      const rules = saved.get(ownerId) ?? defaultAlertRules;
      const done = await serialByOwner(ctx, ownerId, () => applyForOwner(ctx, report, ownerId, screens, rules));
      outcome.started.push(...done.started);
      outcome.ended.push(...done.ended);
    }
  }
  // marked applied after its takeovers: a crash before re-applies it, and each step above is idempotent
  await ctx.data.alerts.reports.done(report.reportId, { kind: report.kind, eventId: report.eventId });
  ctx.logger.info({ reportId: report.reportId, started: outcome.started.length, ended: outcome.ended.length }, 'alert');
  return outcome;
}

interface Planned {
  id: string;
  content: TakeoverAlert;
  endsAt: number;
  screens: ScreenRecord[];
}

async function applyForOwner(
  ctx: ServiceContext,
  report: AlertReport,
  ownerId: string,
  screens: Placed[],
  rules: AlertRules,
): Promise<{ started: string[]; ended: string[] }> {
  const now = ctx.clock.ms();
  const fleet = await ctx.data.fleet.fleets.get(ownerId);
  const running = fleet.running.filter((t) => stillRunning(t, now));
  const ofEvent = running.filter(
    (t) => t.content.kind === 'alert' && t.content.eventId === report.eventId && t.content.alertKind === report.kind,
  );
  // an older report of the event (reports can arrive out of order) never replaces a newer one; a 取消 ends the
  // event whatever its serial (JMA numbers a 震度速報 by time when it has no serial, a 取消 by the event's count)
  const newer = ofEvent.some((t) => t.content.kind === 'alert' && t.content.serial > report.serial);
  if (newer && report.infoType !== 'cancelled') {
    return { started: [], ended: [] };
  }
  // screens whose takeover of this event the member ended by hand: a 訂正 or a later serial does not bring it back
  // (the member's decision stands; another event still shows)
  const handEnded = new Set(
    (await ctx.data.fleet.takeovers.endedByHand(ownerId, report.eventId))
      .filter((d) => d.content.kind === 'alert' && d.content.alertKind === report.kind)
      .flatMap((d) => d.screenIds),
  );
  // the rule's file, when the member may still show it (deleted or unlicensed since: the texts)
  const kind = alertKindOf(report);
  const ruleFile = kind ? (ruleOf(rules, kind).fileId ?? null) : null;
  const fileId = ruleFile && (await fileUsable(ctx, ownerId, ruleFile, now)) ? ruleFile : null;
  const planned = new Map<string, Planned>();
  for (const { screen, place } of screens) {
    if (handEnded.has(screen._id)) continue;
    const found = alertMatch(report, place, rules);
    const match = found && fileId ? { ...found, content: { ...found.content, fileId } } : found;
    if (!match) continue;
    const endsAt = alertEndsAt(report, match.minutes, now);
    if (endsAt <= now) continue; // past its validity
    const key = factsKey(match.content);
    const p = planned.get(key);
    if (p) p.screens.push(screen);
    else {
      const id = nameUuid(`alert-takeover:${ownerId}:${report.reportId}:${key}`, 'v5');
      planned.set(key, { id, content: match.content, endsAt, screens: [screen] });
    }
  }
  const startIds = new Set([...planned.values()].map((p) => p.id));
  const toEnd = ofEvent.filter((t) => !startIds.has(t.id));
  const held = new Set(ofEvent.map((t) => t.id));
  const toStart = [...planned.values()].filter((p) => !held.has(p.id));
  if (toEnd.length === 0 && toStart.length === 0) return { started: [], ended: [] };

  const at = new Date(now);
  const endedDocs: TakeoverDoc[] = [];
  for (const t of toEnd) {
    const doc = await ctx.data.fleet.takeovers.get(t.id);
    if (doc) endedDocs.push(doc);
    await ctx.data.fleet.takeovers.end(t.id, ownerId, at, FEED);
    await ctx.data.fleet.log.add({
      _id: `${t.id}#end`,
      ownerId,
      takeoverId: t.id,
      action: 'end',
      at,
      by: FEED,
      screenIds: doc?.screenIds ?? [],
      content: t.content,
      reportId: report.reportId,
    });
    // the log entry is written once: its time (a rerun's own time differs) makes the entry the same on a rerun
    const logged = await ctx.data.fleet.log.get(`${t.id}#end`);
    if (doc && logged) {
      const running = { ...doc, endedAt: null, endedBy: null };
      await auditFeedChange(ctx, ownerId, 'takeover.ended', running, { ...running, endedAt: logged.at, endedBy: FEED });
    }
  }
  const startedRules: RunningTakeover[] = [];
  for (const p of toStart) {
    const screenIds = p.screens.map((s) => s._id);
    const target = { kind: 'screens' as const, screenIds };
    const doc: TakeoverDoc = {
      _id: p.id,
      ownerId,
      target,
      content: p.content,
      startedAt: at,
      startedBy: FEED,
      alert: { eventId: report.eventId, reportId: report.reportId },
      endsAt: new Date(p.endsAt),
      endedAt: null,
      endedBy: null,
      screenIds,
      templateId: null,
    };
    // the record and its log entry before the fleet document the displays read (as a member's takeover)
    try {
      await ctx.data.fleet.takeovers.insert(doc);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err; // written by an attempt that died before the fleet document
    }
    await ctx.data.fleet.log.add({
      _id: `${p.id}#start`,
      ownerId,
      takeoverId: p.id,
      action: 'start',
      at,
      by: FEED,
      screenIds,
      content: p.content,
      reportId: report.reportId,
    });
    // as stored by the first attempt (a rerun after a crash finds it): the same entry however often this runs
    const stored = (await ctx.data.fleet.takeovers.get(p.id)) ?? doc;
    await auditFeedChange(ctx, ownerId, 'takeover.started', null, stored);
    startedRules.push({ id: p.id, target, content: p.content, startsAt: at, endsAt: doc.endsAt });
  }
  const gone = new Set(toEnd.map((t) => t.id));
  await ctx.data.fleet.fleets.set({
    ...fleet,
    running: [...fleet.running.filter((t) => !gone.has(t.id) && stillRunning(t, now)), ...startedRules],
  });
  for (const doc of endedDocs) {
    await announceFleetChange(ctx, { kind: 'takeover-ended', ownerId, takeoverId: doc._id, screenIds: doc.screenIds });
  }
  for (const r of startedRules) {
    const screenIds = r.target.kind === 'screens' ? r.target.screenIds : [];
    // the rule's file among what the screens may read (the files service grants it to their displays)
    await announceFleetChange(ctx, {
      kind: 'takeover-started',
      ownerId,
      takeoverId: r.id,
      screenIds,
      content: contentOfTakeover(r.content),
    });
  }
  await tellOwner(ctx, report, ownerId, toStart, endedDocs);
  return { started: toStart.map((p) => p.id), ended: toEnd.map((t) => t.id) };
}

/**
 * A takeover the feed started or ended, in the owner's audit log with the system actor `system:alerts`. Written
 * before the fleet document the displays read: a crash after it reruns the report (it is marked applied last), which
 * writes the same entry again (its id derives from the stored records), so it is chained once and never lost.
 */
function auditFeedChange(
  ctx: ServiceContext,
  ownerId: string,
  action: 'takeover.started' | 'takeover.ended',
  before: TakeoverDoc | null,
  after: TakeoverDoc,
) {
  return auditScreensChange(ctx, ALERTS_ACTOR, {
    workspaceId: ownerId,
    action,
    object: { type: 'takeover', id: after._id },
    before: before && takeoverAuditSnapshot(before),
    after: takeoverAuditSnapshot(after),
    key: `${after._id}#${action}`,
  });
}

/** One e-mail per report and member: what it took over (or, for a 取消 or a lowered report, what it released). */
async function tellOwner(
  ctx: ServiceContext,
  report: AlertReport,
  ownerId: string,
  started: Planned[],
  ended: TakeoverDoc[],
): Promise<void> {
  const contents = started.length > 0 ? started.map((p) => p.content) : ended.map((d) => d.content as TakeoverAlert);
  const first = contents[0];
  if (!first) return;
  const screenIds =
    started.length > 0 ? started.flatMap((p) => p.screens.map((s) => s._id)) : ended.flatMap((d) => d.screenIds);
  const listed = screenIds.slice(0, ALERT_MAIL_SCREENS_MAX);
  const records = await ctx.data.screens.byIds(listed);
  const names = new Map(records.map((s) => [s._id, s.name]));
  const noticeId = nameUuid(`alert-notice:${ownerId}:${report.reportId}`, 'v5');
  const data: EventData<'screens.takeover.alerted.v1'> = {
    noticeId,
    ownerId,
    // a 訂正 (or a later serial replacing what an earlier one started) is told as a correction, not a second start
    action:
      started.length > 0 ? (report.infoType === 'corrected' || ended.length > 0 ? 'corrected' : 'started') : 'ended',
    reportId: report.reportId,
    alertKind: first.alertKind,
    drill: first.drill,
    headline: report.headline,
    reportedAt: report.reportedAt,
    areas: [...new Set(contents.map((c) => c.area.name))],
    ...(first.intensity ? { intensity: first.intensity } : {}),
    ...(first.tsunamiGrade ? { tsunamiGrade: first.tsunamiGrade } : {}),
    ...(first.warnings ? { warnings: first.warnings } : {}),
    screens: listed.map((screenId) => ({ screenId, screenName: names.get(screenId) ?? screenId })),
    screensTotal: screenIds.length,
  };
  await ctx.outbox.add('screens.takeover.alerted.v1', data, { id: noticeId });
}
