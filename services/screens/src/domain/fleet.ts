// Fleet precedence, as plain rules: which of an owner's groups comes first, which takeovers concern a
// screen and still run, and everything a screen resolves what it plays with. The records' shapes are named here by
// what the rules read (data/'s documents have more).
import type {
  ResolutionInputs,
  ScreenAssignment,
  TakeoverContent,
  TakeoverTarget,
  TakeoverWindow,
} from '@pagecast/contracts';

/** What a group's rank reads. */
export interface RankedGroup {
  _id: string;
  createdAt: Date;
}

/** What a screen's resolution reads of a group. */
export interface AssigningGroup extends RankedGroup {
  assignment: ScreenAssignment;
}

/** A takeover as the displays need it (the owner's fleet document keeps these while they may run). */
export interface TakeoverRule {
  id: string;
  target: TakeoverTarget;
  content: TakeoverContent;
  startsAt: Date;
  /** null = until ended */
  endsAt: Date | null;
}

/** What a screen's resolution reads of the screen. */
export interface ResolvingScreen {
  /** absent: a takeover of chosen screens concerns it not */
  _id?: string;
  timeZone: string;
  assignment: ScreenAssignment;
  groupIds?: string[];
}

/** The groups in precedence order: the fleet's order first, then any it does not name, oldest first. */
export function orderGroups<G extends RankedGroup>(groups: readonly G[], order: readonly string[]): G[] {
  const rank = new Map(order.map((id, i) => [id, i]));
  return [...groups].sort((a, b) => {
    const ra = rank.get(a._id) ?? Number.MAX_SAFE_INTEGER;
    const rb = rank.get(b._id) ?? Number.MAX_SAFE_INTEGER;
    return ra - rb || a.createdAt.getTime() - b.createdAt.getTime() || a._id.localeCompare(b._id);
  });
}

/** Whether a takeover concerns a screen: all the owner's screens, or a screen in one of its groups now. */
export function concerns(t: Pick<TakeoverRule, 'target'>, screen: Pick<ResolvingScreen, 'groupIds' | '_id'>): boolean {
  if (t.target.kind === 'all') return true;
  // an alert names exactly the screens whose place the report concerns
  if (t.target.kind === 'screens') return screen._id !== undefined && t.target.screenIds.includes(screen._id);
  const mine = new Set(screen.groupIds ?? []);
  return t.target.groupIds.some((g) => mine.has(g));
}

/** Not ended and not past its end at `now`. */
export const stillRunning = (t: Pick<TakeoverRule, 'endsAt'>, now: number) =>
  t.endsAt === null || t.endsAt.getTime() > now;

export const takeoverWindow = (t: TakeoverRule): TakeoverWindow => ({
  id: t.id,
  show: t.content.kind === 'file' ? { kind: 'file', fileId: t.content.fileId } : structuredClone(t.content),
  startsAt: t.startsAt.getTime(),
  endsAt: t.endsAt ? t.endsAt.getTime() : null,
});

/** The content a takeover names, as a fleet change announces it (a message names none; an alert its rule's file). */
export const contentOfTakeover = (content: TakeoverContent) =>
  content.kind === 'file' || (content.kind === 'alert' && content.fileId)
    ? { playlistIds: [], fileIds: [content.fileId as string] }
    : { playlistIds: [], fileIds: [] };

/**
 * Everything a screen resolves with: its own assignment, its groups' in the owner's order, the takeovers that
 * concern it and are still running (their ends are in the data, so an offline display ends them by itself).
 */
export function inputsOf(
  screen: ResolvingScreen,
  fleet: { order: readonly string[]; running: readonly TakeoverRule[] },
  groupsById: ReadonlyMap<string, AssigningGroup>,
  now: number,
): ResolutionInputs {
  const mine = (screen.groupIds ?? []).flatMap((id) => {
    const g = groupsById.get(id);
    return g ? [g] : [];
  });
  return {
    timeZone: screen.timeZone,
    assignment: screen.assignment,
    groups: orderGroups(mine, fleet.order).map((g) => ({ id: g._id, assignment: g.assignment })),
    takeovers: fleet.running.filter((t) => stillRunning(t, now) && concerns(t, screen)).map(takeoverWindow),
  };
}
