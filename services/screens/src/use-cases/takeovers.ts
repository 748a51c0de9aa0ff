// Takeovers: a file or a typed message on all of a member's screens or chosen groups, ahead of every
// schedule, for some minutes or until ended; started and ended by the member (both logged: who, when, which screens,
// what), or ended on time by itself (its end is in the data the displays resolve with). Templates are saved ones.
import { randomUUID } from 'node:crypto';
import {
  type MemberTakeoverContent,
  type StartTakeoverRequest,
  TAKEOVER_TEMPLATES_MAX,
  type Takeover,
  type TakeoverLogEntry,
  type TakeoverTemplate,
  type TakeoverTemplateRequest,
} from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { RunningTakeover, ScreenRecord, TakeoverDoc, TemplateDoc } from '../data';
import { concerns, contentOfTakeover, stillRunning, type TakeoverPeriod } from '../domain';
import { auditScreensChange, takeoverAuditSnapshot } from '../events/audit';
import { announceFleetChange, checkFile } from './fleet-common';
import { FEED } from './feed';
import { serialByOwner } from './fleet-lease';
import { ownedGroup } from './groups';

const covered = (t: Pick<RunningTakeover, 'target'>, screens: ScreenRecord[]) => screens.filter((s) => concerns(t, s));

function present(doc: TakeoverDoc): Takeover {
  return {
    id: doc._id,
    target: doc.target,
    content: doc.content,
    startedAt: doc.startedAt.toISOString(),
    endsAt: doc.endsAt ? doc.endsAt.toISOString() : null,
    endedAt: doc.endedAt ? doc.endedAt.toISOString() : null,
    screenIds: doc.screenIds,
    templateId: doc.templateId,
  };
}

async function ownedTemplate(ctx: ServiceContext, ownerId: string, templateId: string): Promise<TemplateDoc> {
  const t = await ctx.data.fleet.templates.get(templateId);
  if (!t || t.ownerId !== ownerId) throw new AppError('TAKEOVER_TEMPLATE_NOT_FOUND', { details: { templateId } });
  return t;
}

async function checkContent(ctx: ServiceContext, ownerId: string, content: MemberTakeoverContent): Promise<void> {
  if (content.kind === 'file') await checkFile(ctx, ownerId, content.fileId, ctx.clock.ms());
}

/** Each takeover's screens as a set, while its document is held (a fleet's takeover names thousands). */
const screenSets = new WeakMap<TakeoverDoc, Set<string>>();
const coveredBy = (d: TakeoverDoc): Set<string> => {
  let set = screenSets.get(d);
  if (!set) {
    set = new Set(d.screenIds);
    screenSets.set(d, set);
  }
  return set;
};

/** The file takeovers that covered this screen (the screens they covered when they started), for proof of play. */
export async function takeoverPeriods(
  ctx: ServiceContext,
  screen: ScreenRecord,
  now: number,
  fresh: boolean,
): Promise<TakeoverPeriod[]> {
  const docs = await ctx.data.fleet.takeovers.recentOfOwner(screen.ownerId, now, fresh);
  return docs.flatMap((d) =>
    d.content.kind === 'file' && coveredBy(d).has(screen._id)
      ? [
          {
            id: d._id,
            fileId: d.content.fileId,
            from: d.startedAt.getTime(),
            to: (d.endedAt ?? d.endsAt)?.getTime() ?? Number.MAX_SAFE_INTEGER,
          },
        ]
      : [],
  );
}

/** Starts a takeover on the screens of `ownerId`'s workspace; `by`: the member who starts it (logged). */
export async function startTakeover(
  ctx: ServiceContext,
  ownerId: string,
  by: string,
  input: StartTakeoverRequest,
  actor: AuditActor,
): Promise<Takeover> {
  return serialByOwner(ctx, ownerId, async () => {
    const now = ctx.clock.ms();
    let content: MemberTakeoverContent;
    let minutes: number | null;
    let templateId: string | null = null;
    if ('templateId' in input) {
      const t = await ownedTemplate(ctx, ownerId, input.templateId);
      ({ content, minutes } = t);
      templateId = t._id;
    } else ({ content, minutes } = input);
    if (input.target.kind === 'groups') {
      for (const id of new Set(input.target.groupIds)) await ownedGroup(ctx, ownerId, id);
    }
    await checkContent(ctx, ownerId, content);
    // from memory: at 10,000 screens the query was most of the call (each display's takeover waits for it)
    const screens = await ctx.data.screens.activeHeld(ownerId);
    const target = input.target;
    const mine = new Set(covered({ target }, screens).map((s) => s._id));
    const fleet = await ctx.data.fleet.fleets.get(ownerId);
    const running = fleet.running.filter((t) => stillRunning(t, now));
    const clash = running.find(
      (t) => t.target.kind === 'all' || target.kind === 'all' || covered(t, screens).some((s) => mine.has(s._id)),
    );
    if (clash) throw new AppError('TAKEOVER_OVERLAP', { details: { takeoverId: clash.id } });

    const startsAt = new Date(now);
    const endsAt = minutes === null ? null : new Date(now + minutes * 60_000);
    const doc: TakeoverDoc = {
      _id: randomUUID(),
      ownerId,
      target,
      content,
      startedAt: startsAt,
      startedBy: by,
      endsAt,
      endedAt: null,
      endedBy: null,
      screenIds: [...mine],
      templateId,
    };
    // the record and its log entry first, then the fleet document the displays read: a crash between leaves a
    // logged takeover that never showed (listed as such), never one that shows without a record
    await ctx.data.fleet.takeovers.insert(doc);
    await ctx.data.fleet.log.add({
      _id: `${doc._id}#start`,
      ownerId,
      takeoverId: doc._id,
      action: 'start',
      at: startsAt,
      by,
      screenIds: doc.screenIds,
      content,
    });
    await ctx.data.fleet.fleets.set({
      ...fleet,
      running: [...running, { id: doc._id, target, content, startsAt, endsAt }],
    });
    await auditScreensChange(ctx, actor, {
      workspaceId: ownerId,
      action: 'takeover.started',
      object: { type: 'takeover', id: doc._id },
      before: null,
      after: takeoverAuditSnapshot(doc),
    });
    await announceFleetChange(ctx, {
      kind: 'takeover-started',
      ownerId,
      takeoverId: doc._id,
      screenIds: doc.screenIds,
      content: contentOfTakeover(content),
    });
    return present(doc);
  });
}

/** Ends a running takeover of `ownerId`'s workspace; `by`: the member who ends it (logged). */
export async function endTakeover(
  ctx: ServiceContext,
  ownerId: string,
  by: string,
  takeoverId: string,
  actor: AuditActor,
): Promise<Takeover> {
  return serialByOwner(ctx, ownerId, async () => {
    const now = ctx.clock.ms();
    const fleet = await ctx.data.fleet.fleets.get(ownerId);
    const doc = await ctx.data.fleet.takeovers.get(takeoverId);
    const running = fleet.running.find((t) => t.id === takeoverId && stillRunning(t, now));
    if (!doc || doc.ownerId !== ownerId || !running || doc.endedAt) {
      throw new AppError('TAKEOVER_NOT_FOUND', { details: { takeoverId } });
    }
    const endedAt = new Date(now);
    await ctx.data.fleet.fleets.set({
      ...fleet,
      running: fleet.running.filter((t) => t.id !== takeoverId && stillRunning(t, now)),
    });
    await ctx.data.fleet.takeovers.end(takeoverId, ownerId, endedAt, by);
    await ctx.data.fleet.log.add({
      _id: `${takeoverId}#end`,
      ownerId,
      takeoverId,
      action: 'end',
      at: endedAt,
      by,
      screenIds: doc.screenIds,
      content: doc.content,
    });
    await auditScreensChange(ctx, actor, {
      workspaceId: ownerId,
      action: 'takeover.ended',
      object: { type: 'takeover', id: takeoverId },
      before: takeoverAuditSnapshot(doc),
      after: takeoverAuditSnapshot({ ...doc, endedAt, endedBy: by }),
    });
    await announceFleetChange(ctx, { kind: 'takeover-ended', ownerId, takeoverId, screenIds: doc.screenIds });
    return present({ ...doc, endedAt, endedBy: by });
  });
}

/** Running and scheduled takeovers: those in the fleet document the displays read, not ended. */
export async function listTakeovers(ctx: ServiceContext, ownerId: string): Promise<Takeover[]> {
  const now = ctx.clock.ms();
  const fleet = await ctx.data.fleet.fleets.get(ownerId);
  const ids = new Set(fleet.running.filter((t) => stillRunning(t, now)).map((t) => t.id));
  const docs = await ctx.data.fleet.takeovers.ofOwner(ownerId);
  return docs
    .filter((d) => ids.has(d._id) && !d.endedAt)
    .sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime())
    .map(present);
}

/** Every start and end, newest first; a takeover that ended on time by itself shows its end with `by: null`. */
export async function takeoverLog(ctx: ServiceContext, ownerId: string): Promise<TakeoverLogEntry[]> {
  const now = ctx.clock.ms();
  const [entries, docs] = await Promise.all([
    ctx.data.fleet.log.ofOwner(ownerId),
    ctx.data.fleet.takeovers.ofOwner(ownerId),
  ]);
  const out: TakeoverLogEntry[] = entries.map((e) => ({
    takeoverId: e.takeoverId,
    action: e.action,
    at: e.at.toISOString(),
    // the alert feed is no member: its entries say so, with the report that started or ended them
    ...(e.by === FEED
      ? { by: null, source: 'feed' as const, ...(e.reportId ? { reportId: e.reportId } : {}) }
      : { by: e.by }),
    screenIds: e.screenIds,
    content: e.content,
  }));
  const ended = new Set(entries.filter((e) => e.action === 'end').map((e) => e.takeoverId));
  for (const d of docs) {
    if (!ended.has(d._id) && !d.endedAt && d.endsAt && d.endsAt.getTime() <= now) {
      out.push({
        takeoverId: d._id,
        action: 'end',
        at: d.endsAt.toISOString(),
        by: null,
        screenIds: d.screenIds,
        content: d.content,
      });
    }
  }
  return out.sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || (a.action === 'end' ? -1 : 1));
}

const presentTemplate = (t: TemplateDoc): TakeoverTemplate => ({
  id: t._id,
  name: t.name,
  content: t.content,
  minutes: t.minutes,
});

export async function listTemplates(ctx: ServiceContext, ownerId: string): Promise<TakeoverTemplate[]> {
  const docs = await ctx.data.fleet.templates.ofOwner(ownerId);
  return docs.sort((a, b) => a.name.localeCompare(b.name)).map(presentTemplate);
}

export async function createTemplate(
  ctx: ServiceContext,
  ownerId: string,
  input: TakeoverTemplateRequest,
  actor: AuditActor,
): Promise<TakeoverTemplate> {
  return serialByOwner(ctx, ownerId, async () => {
    if ((await ctx.data.fleet.templates.countOf(ownerId)) >= TAKEOVER_TEMPLATES_MAX) {
      throw new AppError('TAKEOVER_TEMPLATE_LIMIT', { details: { max: TAKEOVER_TEMPLATES_MAX } });
    }
    await checkContent(ctx, ownerId, input.content);
    const doc: TemplateDoc = { _id: randomUUID(), ownerId, ...input };
    await ctx.data.fleet.templates.insert(doc);
    await auditScreensChange(ctx, actor, {
      workspaceId: ownerId,
      action: 'takeover-template.created',
      object: { type: 'takeover-template', id: doc._id },
      before: null,
      after: presentTemplate(doc),
    });
    return presentTemplate(doc);
  });
}

export async function updateTemplate(
  ctx: ServiceContext,
  ownerId: string,
  templateId: string,
  input: TakeoverTemplateRequest,
  actor: AuditActor,
): Promise<TakeoverTemplate> {
  const before = await ownedTemplate(ctx, ownerId, templateId);
  await checkContent(ctx, ownerId, input.content);
  await ctx.data.fleet.templates.set(templateId, input);
  const after = presentTemplate({ _id: templateId, ownerId, ...input });
  await auditScreensChange(ctx, actor, {
    workspaceId: ownerId,
    action: 'takeover-template.updated',
    object: { type: 'takeover-template', id: templateId },
    before: presentTemplate(before),
    after,
  });
  return after;
}

export async function deleteTemplate(
  ctx: ServiceContext,
  ownerId: string,
  templateId: string,
  actor: AuditActor,
): Promise<void> {
  const before = await ownedTemplate(ctx, ownerId, templateId);
  await ctx.data.fleet.templates.remove(templateId);
  await auditScreensChange(ctx, actor, {
    workspaceId: ownerId,
    action: 'takeover-template.deleted',
    object: { type: 'takeover-template', id: templateId },
    before: presentTemplate(before),
    after: null,
  });
}
