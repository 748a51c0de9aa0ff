// The fleet pages' decisions, kept pure for tests: which screens a selection picks (as the server's bulk change
// does), the request a takeover form sends, a group moved up or down in precedence.
import {
  type BulkChange,
  type Screen,
  type ScreenGroup,
  type ScreenSelection,
  type StartTakeoverRequest,
  TAKEOVER_BODY_MAX,
  TAKEOVER_MAX_MINUTES,
  TAKEOVER_TITLE_MAX,
  type MemberTakeoverContent,
} from '@pagecast/contracts';

export type SelectionMode = 'group' | 'filter' | 'hand';

export interface SelectionForm {
  mode: SelectionMode;
  groupId: string;
  name: string;
  status: '' | 'online' | 'offline';
  filterGroupId: string;
  chosen: ReadonlySet<string>;
}

/** The selection a form describes, as the bulk call takes it (null: nothing chosen yet). */
export function selectionOf(form: SelectionForm): ScreenSelection | null {
  if (form.mode === 'group') return form.groupId ? { by: 'group', groupId: form.groupId } : null;
  if (form.mode === 'hand') return form.chosen.size ? { by: 'ids', screenIds: [...form.chosen] } : null;
  const name = form.name.trim();
  return {
    by: 'filter',
    ...(name ? { name } : {}),
    ...(form.status ? { status: form.status } : {}),
    ...(form.filterGroupId ? { groupId: form.filterGroupId } : {}),
  };
}

/** The screens a selection picks, from what the page knows (the server decides again, all or nothing). */
export function selectedScreens(
  selection: ScreenSelection | null,
  screens: readonly Screen[],
  groups: readonly ScreenGroup[],
): Screen[] {
  if (!selection) return [];
  const membersOf = (groupId: string) => new Set(groups.find((g) => g.id === groupId)?.screenIds ?? []);
  switch (selection.by) {
    case 'ids': {
      const ids = new Set(selection.screenIds);
      return screens.filter((s) => ids.has(s.id));
    }
    case 'group': {
      const ids = membersOf(selection.groupId);
      return screens.filter((s) => ids.has(s.id));
    }
    case 'filter': {
      const name = selection.name?.toLocaleLowerCase();
      const members = selection.groupId ? membersOf(selection.groupId) : null;
      return screens.filter(
        (s) =>
          (!name || s.name.toLocaleLowerCase().includes(name)) &&
          (!selection.status || (selection.status === 'online') === s.online) &&
          (!members || members.has(s.id)),
      );
    }
  }
}

export interface TakeoverForm {
  target: 'all' | 'groups';
  groupIds: ReadonlySet<string>;
  kind: 'message' | 'file';
  title: string;
  body: string;
  fileId: string;
  /** 'until-ended' or a number of minutes as typed */
  duration: 'minutes' | 'until-ended';
  minutes: string;
}

export type TakeoverFormProblem = 'groups' | 'title' | 'titleLong' | 'bodyLong' | 'file' | 'minutes';

/** The content and duration a form gives, or what is wrong with it (checked again by the server). */
export function takeoverParts(
  form: TakeoverForm,
): { content: MemberTakeoverContent; minutes: number | null } | { problem: TakeoverFormProblem } {
  let content: MemberTakeoverContent;
  if (form.kind === 'message') {
    const title = form.title.trim();
    if (!title) return { problem: 'title' };
    if (title.length > TAKEOVER_TITLE_MAX) return { problem: 'titleLong' };
    const body = form.body.trim();
    if (body.length > TAKEOVER_BODY_MAX) return { problem: 'bodyLong' };
    content = { kind: 'message', title, body };
  } else {
    if (!form.fileId) return { problem: 'file' };
    content = { kind: 'file', fileId: form.fileId };
  }
  let minutes: number | null = null;
  if (form.duration === 'minutes') {
    minutes = Number(form.minutes);
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > TAKEOVER_MAX_MINUTES) return { problem: 'minutes' };
  }
  return { content, minutes };
}

/** The start request a form gives, or what is wrong with it. */
export function takeoverRequest(
  form: TakeoverForm,
):
  | { target: StartTakeoverRequest['target']; content: MemberTakeoverContent; minutes: number | null }
  | { problem: TakeoverFormProblem } {
  if (form.target === 'groups' && form.groupIds.size === 0) return { problem: 'groups' };
  const parts = takeoverParts(form);
  if ('problem' in parts) return parts;
  return { target: targetOf(form), ...parts };
}

export const targetOf = (form: Pick<TakeoverForm, 'target' | 'groupIds'>): StartTakeoverRequest['target'] =>
  form.target === 'all' ? { kind: 'all' } : { kind: 'groups', groupIds: [...form.groupIds] };

/** The groups' ids in order with one moved by `by` places (-1 = up, higher precedence), or null at an end. */
export function moved(ids: readonly string[], id: string, by: -1 | 1): string[] | null {
  const at = ids.indexOf(id);
  const to = at + by;
  if (at < 0 || to < 0 || to >= ids.length) return null;
  const next = [...ids];
  next.splice(at, 1);
  next.splice(to, 0, id);
  return next;
}

/** The change a bulk form describes (null: not complete). */
export function bulkChangeOf(form: {
  kind: BulkChange['kind'];
  playlistId: string;
  groupId: string;
  timeZone: string;
}): BulkChange | null {
  switch (form.kind) {
    case 'assign':
      return {
        kind: 'assign',
        assignment: form.playlistId ? { kind: 'playlist', playlistId: form.playlistId } : { kind: 'none' },
      };
    case 'add-to-group':
    case 'remove-from-group':
      return form.groupId ? { kind: form.kind, groupId: form.groupId } : null;
    case 'set-time-zone':
      return form.timeZone ? { kind: 'set-time-zone', timeZone: form.timeZone } : null;
    case 'unpair':
      return { kind: 'unpair' };
  }
}
