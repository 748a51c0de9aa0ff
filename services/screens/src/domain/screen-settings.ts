// What applies to one screen, as plain rules: its groups in precedence order, its rotation, hours
// and alert threshold, what it is given with a set of groups, and whether a report shows what it should.
import {
  alertAfterOf,
  type DeviceScreen,
  type ExpectedShow,
  type OpeningHours,
  openingHoursOf,
  type ScreenAssignment,
  type ScreenRotation,
  type ShownReport,
  SCREEN_HEARTBEAT_SECONDS,
  showsExpected,
} from '@pagecast/contracts';
import { type AssigningGroup, inputsOf, orderGroups, type ResolvingScreen, type TakeoverRule } from './fleet';

/** What a screen's settings read of a group. */
export interface SettingGroup extends AssigningGroup {
  /** absent on groups made before hours existed: null and the default */
  openingHours?: OpeningHours;
  alertAfterMinutes?: number;
}

/** The hours that apply to a screen from some time on, and its zone. */
export interface HoursInForce {
  openingHours: OpeningHours;
  timeZone: string;
}

/** The screen's groups (those that exist), highest precedence first. */
export function groupsOfScreen<G extends SettingGroup>(
  screen: { groupIds?: string[] },
  groupsById: ReadonlyMap<string, G>,
  order: readonly string[],
): G[] {
  const mine = (screen.groupIds ?? []).flatMap((id) => {
    const g = groupsById.get(id);
    return g ? [g] : [];
  });
  return orderGroups(mine, order);
}

/** The settings that apply to a screen: its rotation, its hours (own, else its first group's), its threshold. */
export function settingsOf(
  screen: { rotation?: ScreenRotation; openingHours?: OpeningHours },
  orderedGroups: ReadonlyArray<SettingGroup>,
): { rotation: ScreenRotation; openingHours: OpeningHours; alertAfterMinutes: number } {
  const groups = orderedGroups.map((g) => ({
    openingHours: g.openingHours ?? null,
    alertAfterMinutes: g.alertAfterMinutes ?? alertAfterOf([]),
  }));
  return {
    rotation: screen.rotation ?? 0,
    openingHours: openingHoursOf(screen.openingHours ?? null, groups),
    alertAfterMinutes: alertAfterOf(groups),
  };
}

/**
 * What a screen is given with these groups (as they will be) and its own settings (as they will be): its groups'
 * assignments, highest precedence first, and the hours that apply (settingsOf, the one rule) in its zone.
 */
export function givenWith(
  screen: { rotation?: ScreenRotation; openingHours?: OpeningHours; timeZone: string },
  groupIds: string[],
  groupsById: ReadonlyMap<string, SettingGroup>,
  order: readonly string[],
): { groups: ScreenAssignment[]; hours: HoursInForce } {
  const ordered = groupsOfScreen({ groupIds }, groupsById, order);
  return {
    groups: ordered.map((g) => g.assignment),
    hours: { openingHours: settingsOf(screen, ordered).openingHours, timeZone: screen.timeZone },
  };
}

/** Whether two hours in force judge every instant alike (a zone does not matter to a screen always open). */
export function sameHours(a: HoursInForce, b: HoursInForce): boolean {
  if (a.openingHours === null || b.openingHours === null) return a.openingHours === b.openingHours;
  return a.timeZone === b.timeZone && JSON.stringify(a.openingHours) === JSON.stringify(b.openingHours);
}

/** A playlist's files at `now` from its versions (oldest first): the newest version already in force. */
export function playlistFilesAt(versions: ReadonlyArray<{ from: number; fileIds: string[] }>, now: number): string[] {
  const inForce = versions.filter((v) => v.from <= now);
  return (inForce.at(-1) ?? versions.at(-1))?.fileIds ?? [];
}

/** Whether a report shows what is expected (null: nothing reported, so nothing to judge). */
export function reportIsRight(
  shows: ShownReport | null | undefined,
  expected: ExpectedShow,
  playlistFiles: ReadonlyMap<string, ReadonlySet<string>>,
): boolean | null {
  if (!shows) return null;
  return showsExpected(
    shows,
    expected,
    expected.kind === 'playlist' ? playlistFiles.get(expected.playlistId) : undefined,
  );
}

/**
 * What a display resolves with on its own clock (its groups' assignments in order, the takeovers that
 * concern it with their ends) and how it shows it (its rotation and the hours that apply).
 */
export function manifestOf(
  screen: ResolvingScreen & {
    _id: string;
    name: string;
    rotation?: ScreenRotation;
    openingHours?: OpeningHours;
  },
  fleet: { order: readonly string[]; running: readonly TakeoverRule[] },
  groupsById: ReadonlyMap<string, SettingGroup>,
  now: number,
): DeviceScreen {
  const inputs = inputsOf(screen, fleet, groupsById, now);
  const { rotation, openingHours } = settingsOf(screen, groupsOfScreen(screen, groupsById, fleet.order));
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    screenId: screen._id,
    name: screen.name,
    timeZone: screen.timeZone,
    assignment: screen.assignment,
    heartbeatSeconds: SCREEN_HEARTBEAT_SECONDS,
    groups: inputs.groups.map((g) => ({ id: g.id, assignment: g.assignment })),
    takeovers: inputs.takeovers.map((t) => ({
      id: t.id,
      show: t.show,
      startsAt: iso(t.startsAt),
      endsAt: t.endsAt === null ? null : iso(t.endsAt),
    })),
    rotation,
    openingHours,
  };
}
