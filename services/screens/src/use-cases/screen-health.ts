// Fleet health: each screen's state from what its display last reported (the status bucket, held in
// memory by every instance), what the resolver says it should play now, and the hours and threshold that apply.
// Used by the fleet view (GET /api/screens/health) and by the incident sweeper. The rules are the pure functions of
// @pagecast/contracts (screen-health.ts); this file only gathers their inputs, without a read per screen.
import {
  expectedOf,
  type HealthVerdict,
  healthOf,
  type OpeningHours,
  resolveScreen,
  type ScreenHealth,
} from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import type { FleetDoc, GroupDoc, ScreenStatus } from '../data';
import type { HealthScreenRecord as HealthScreen } from '../data/screens';
import { groupsOfScreen, inputsOf, playlistFilesAt, reportIsRight, settingsOf } from '../domain';

/** What the health of a screen needs of its record (a projection of the owner's screens is enough). */
export type { HealthScreenRecord as HealthScreen } from '../data/screens';

export interface ScreenHealthView {
  health: ScreenHealth;
  verdict: HealthVerdict;
  ownerId: string;
  timeZone: string;
  openingHours: OpeningHours;
  alertAfterMinutes: number;
}

/** The files of these playlists now (a playlist the read model does not know is left out: any page is accepted). */
export async function playlistFileSets(
  ctx: ServiceContext,
  playlistIds: string[],
  now: number,
  fresh = false,
): Promise<Map<string, Set<string>>> {
  if (playlistIds.length === 0) return new Map();
  const found = await ctx.data.content.playlists(playlistIds, now, fresh);
  return new Map([...found].map(([id, versions]) => [id, new Set(playlistFilesAt(versions, now))]));
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The health of these screens at `now`. Per owner: its fleet document (group order, takeovers) and its groups, once;
 * the playlists any of them should play now, once (cached read model); the statuses from memory. Nothing per screen.
 */
export async function healthOfScreens(
  ctx: ServiceContext,
  screens: HealthScreen[],
  now: number,
): Promise<ScreenHealthView[]> {
  const owners = [...new Set(screens.map((s) => s.ownerId))];
  const perOwner = new Map<string, { fleet: FleetDoc; groupsById: Map<string, GroupDoc> }>();
  await Promise.all(
    owners.map(async (ownerId) => {
      const [fleet, groups] = await Promise.all([
        ctx.data.fleet.fleets.get(ownerId),
        ctx.data.fleet.groups.ofOwner(ownerId),
      ]);
      perOwner.set(ownerId, { fleet, groupsById: new Map(groups.map((g) => [g._id, g])) });
    }),
  );
  const statuses = new Map<string, ScreenStatus>();
  for (const ownerId of owners) {
    const ids = screens.filter((s) => s.ownerId === ownerId).map((s) => s._id);
    for (const [id, status] of await ctx.data.statuses.forScreens(ownerId, ids)) statuses.set(id, status);
  }

  const prepared = screens.map((screen) => {
    const { fleet, groupsById } = perOwner.get(screen.ownerId) as {
      fleet: FleetDoc;
      groupsById: Map<string, GroupDoc>;
    };
    const expected = expectedOf(resolveScreen(inputsOf(screen, fleet, groupsById, now), now));
    const groups = groupsOfScreen(screen, groupsById, fleet.order);
    return { screen, expected, settings: settingsOf(screen, groups), status: statuses.get(screen._id) ?? null };
  });
  const playlistIds = [
    ...new Set(prepared.flatMap((p) => (p.expected.kind === 'playlist' ? [p.expected.playlistId] : []))),
  ];
  const playlistFiles = await playlistFileSets(ctx, playlistIds, now);

  return prepared.map(({ screen, expected, settings, status }) => {
    const shows = status?.shows ?? null;
    // what it shows is judged against what it should show now: a report that is right now is not wrong, whatever
    // was stored (the assignment may have changed since); one that is wrong keeps the time it turned wrong
    const right = reportIsRight(shows, expected, playlistFiles);
    const wrongSince = right === false ? (status?.wrongSince ?? null) : null;
    const verdict = healthOf(
      {
        lastSeenAt: status ? status.lastSeenAt.getTime() : null,
        openingHours: settings.openingHours,
        timeZone: screen.timeZone,
        shows,
        wrongSince,
        brokenSince: status?.brokenSince ?? null,
        shownSeenAt: status?.shownSeenAt ?? null,
      },
      now,
    );
    const health: ScreenHealth = {
      screenId: screen._id,
      name: screen.name,
      state: verdict.state,
      since: verdict.state === 'ok' ? null : iso(verdict.since),
      lastSeenAt: status ? status.lastSeenAt.toISOString() : null,
      shows,
      expected,
      lastImageError: status?.lastImageError ?? null,
      rotation: settings.rotation,
      openingHours: settings.openingHours,
      groupIds: screen.groupIds ?? [],
      alertAfterMinutes: settings.alertAfterMinutes,
    };
    return {
      health,
      verdict,
      ownerId: screen.ownerId,
      timeZone: screen.timeZone,
      openingHours: settings.openingHours,
      alertAfterMinutes: settings.alertAfterMinutes,
    };
  });
}
