// What plays when, and why: for a screen (or each screen of a group) the next 7 days, computed by the
// resolver the displays run (agendaOf in @pagecast/contracts), with the licence ends of bought content.
import {
  AGENDA_DAYS,
  AGENDA_FROM_MAX_DAYS,
  agendaOf,
  contentOfInputs,
  type GroupAgenda,
  type LicenceEnd,
  type ScreenAgenda,
} from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { FleetDoc, GroupDoc, ScreenRecord } from '../data';
import { agendaUntil, inputsOf } from '../domain';
import { ownedGroup } from './groups';
import { ownedScreen } from './owned-screen';

export async function agendaFor(
  ctx: ServiceContext,
  screen: ScreenRecord,
  fleet: FleetDoc,
  groupsById: ReadonlyMap<string, GroupDoc>,
  from: number,
): Promise<ScreenAgenda> {
  const to = from + AGENDA_DAYS * 86_400_000;
  const inputs = inputsOf(screen, fleet, groupsById, from);
  const named = contentOfInputs(inputs);
  const playlists = await ctx.data.content.playlistFacts(named.playlistIds, ctx.clock.ms());
  const playlistFiles = new Map([...playlists].map(([id, p]) => [id, p.fileIds] as const));
  const fileIds = [...new Set([...named.fileIds, ...[...playlists.values()].flatMap((p) => p.fileIds)])];
  const files = await ctx.data.content.files(fileIds, ctx.clock.ms());
  const bought = fileIds.filter((id) => files.get(id)?.ownerId !== screen.ownerId);
  const licences = await ctx.data.content.licences(screen.ownerId, bought, ctx.clock.ms());
  // domain/file-use: a bought file plays until its licences live at `from` end (at once when none is)
  const licenceEnds: LicenceEnd[] = bought.flatMap((fileId) => {
    const endsAt = agendaUntil(files.get(fileId), screen.ownerId, licences.get(fileId) ?? [], from);
    return endsAt === null ? [] : [{ fileId, endsAt }];
  });
  const agenda = agendaOf(inputs, from, to, { licenceEnds, playlistFiles });
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    screenId: screen._id,
    timeZone: screen.timeZone,
    from: iso(from),
    to: iso(to),
    entries: agenda.entries.map((e) => ({ ...e, from: iso(e.from), to: iso(e.to) })),
    licenceEnds: agenda.licenceEnds.map((l) => ({ fileId: l.fileId, at: iso(l.at) })),
  };
}

/**
 * The agenda's start: now, or `from` when it is at most AGENDA_FROM_MAX_DAYS away (an agenda of year 9999 would end
 * in year 10000, which no ISO date of the answer can say; nobody plans that far).
 */
function startOf(ctx: ServiceContext, from: string | undefined): number {
  const now = ctx.clock.ms();
  if (!from) return now;
  const start = Date.parse(from);
  if (!(Math.abs(start - now) <= AGENDA_FROM_MAX_DAYS * 86_400_000)) {
    throw new AppError('AGENDA_FROM_OUT_OF_RANGE', {
      issues: [{ path: 'from', message: `within ${AGENDA_FROM_MAX_DAYS} days of now` }],
    });
  }
  return start;
}

export async function screenAgenda(
  ctx: ServiceContext,
  ownerId: string,
  screenId: string,
  query: { from?: string },
): Promise<ScreenAgenda> {
  const from = startOf(ctx, query.from);
  const screen = await ownedScreen(ctx, ownerId, screenId);
  const [fleet, groups] = await Promise.all([
    ctx.data.fleet.fleets.get(ownerId),
    ctx.data.fleet.groups.byIds(screen.groupIds ?? []),
  ]);
  return agendaFor(ctx, screen, fleet, new Map(groups.map((g) => [g._id, g])), from);
}

export async function groupAgenda(
  ctx: ServiceContext,
  ownerId: string,
  groupId: string,
  query: { from?: string },
): Promise<GroupAgenda> {
  const from = startOf(ctx, query.from);
  await ownedGroup(ctx, ownerId, groupId);
  const [fleet, groups, screens] = await Promise.all([
    ctx.data.fleet.fleets.get(ownerId),
    ctx.data.fleet.groups.ofOwner(ownerId),
    ctx.data.screens.listActive(ownerId),
  ]);
  const byId = new Map(groups.map((g) => [g._id, g]));
  const members = screens.filter((s) => s.groupIds?.includes(groupId));
  return { groupId, screens: await Promise.all(members.map((s) => agendaFor(ctx, s, fleet, byId, from))) };
}
