// The fleet pages' decisions: which screens a selection picks, the takeover a form sends (and what is
// wrong with it), a group moved in precedence, the change a bulk form describes.
import type { Screen, ScreenGroup } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import {
  bulkChangeOf,
  moved,
  type SelectionForm,
  selectedScreens,
  selectionOf,
  type TakeoverForm,
  takeoverRequest,
} from '../src/features/fleet/model/fleet-model';

const screen = (id: string, name: string, online: boolean) => ({ id, name, online }) as Screen;
const screens = [
  screen('s1', 'Lobby East', true),
  screen('s2', 'Lobby West', false),
  screen('s3', 'Cafe', true),
  screen('s4', '受付', true),
];
const groups = [
  { id: 'g1', name: 'Lobby', screenIds: ['s1', 's2'] },
  { id: 'g2', name: 'Food', screenIds: ['s3'] },
] as ScreenGroup[];
const form = (patch: Partial<SelectionForm>): SelectionForm => ({
  mode: 'group',
  groupId: '',
  name: '',
  status: '',
  filterGroupId: '',
  chosen: new Set(),
  ...patch,
});
const ids = (f: SelectionForm) => selectedScreens(selectionOf(f), screens, groups).map((s) => s.id);

describe('selecting many screens', () => {
  it('by group, by hand, or nothing until something is chosen', () => {
    expect(selectionOf(form({}))).toBeNull();
    expect(ids(form({ groupId: 'g1' }))).toEqual(['s1', 's2']);
    expect(selectionOf(form({ groupId: 'g1' }))).toEqual({ by: 'group', groupId: 'g1' });
    expect(selectionOf(form({ mode: 'hand' }))).toBeNull();
    expect(ids(form({ mode: 'hand', chosen: new Set(['s4', 's3']) }))).toEqual(['s3', 's4']);
  });

  it('by a filter on name (any case), status and group: every given condition holds', () => {
    expect(ids(form({ mode: 'filter', name: ' lobby ' }))).toEqual(['s1', 's2']);
    expect(selectionOf(form({ mode: 'filter', name: ' lobby ' }))).toEqual({ by: 'filter', name: 'lobby' });
    expect(ids(form({ mode: 'filter', name: 'LOBBY', status: 'online' }))).toEqual(['s1']);
    expect(ids(form({ mode: 'filter', status: 'online', filterGroupId: 'g2' }))).toEqual(['s3']);
    expect(ids(form({ mode: 'filter', name: '受' }))).toEqual(['s4']);
    // no condition: every screen, as the server's filter
    expect(selectionOf(form({ mode: 'filter' }))).toEqual({ by: 'filter' });
    expect(ids(form({ mode: 'filter' }))).toHaveLength(4);
  });
});

describe('a takeover form', () => {
  const base: TakeoverForm = {
    target: 'all',
    groupIds: new Set(),
    kind: 'message',
    title: ' 地震発生 ',
    body: ' 落ち着いて避難してください ',
    fileId: '',
    duration: 'minutes',
    minutes: '20',
  };
  it('sends a trimmed message on all screens for its minutes, or until ended', () => {
    expect(takeoverRequest(base)).toEqual({
      target: { kind: 'all' },
      content: { kind: 'message', title: '地震発生', body: '落ち着いて避難してください' },
      minutes: 20,
    });
    expect(takeoverRequest({ ...base, duration: 'until-ended', minutes: '' })).toMatchObject({ minutes: null });
    expect(
      takeoverRequest({ ...base, target: 'groups', groupIds: new Set(['g2']), kind: 'file', fileId: 'f1' }),
    ).toEqual({ target: { kind: 'groups', groupIds: ['g2'] }, content: { kind: 'file', fileId: 'f1' }, minutes: 20 });
  });
  it('says what is wrong instead of sending it', () => {
    expect(takeoverRequest({ ...base, title: '   ' })).toEqual({ problem: 'title' });
    expect(takeoverRequest({ ...base, title: 'x'.repeat(81) })).toEqual({ problem: 'titleLong' });
    expect(takeoverRequest({ ...base, body: 'x'.repeat(501) })).toEqual({ problem: 'bodyLong' });
    expect(takeoverRequest({ ...base, target: 'groups' })).toEqual({ problem: 'groups' });
    expect(takeoverRequest({ ...base, kind: 'file' })).toEqual({ problem: 'file' });
    for (const minutes of ['0', '1.5', '', '10081', 'abc'])
      expect(takeoverRequest({ ...base, minutes })).toEqual({ problem: 'minutes' });
    expect(takeoverRequest({ ...base, minutes: '10080' })).toMatchObject({ minutes: 10080 });
  });
});

describe('group order and bulk changes', () => {
  it('moves a group up or down, not past either end', () => {
    expect(moved(['a', 'b', 'c'], 'c', -1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 'a', 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 'a', -1)).toBeNull();
    expect(moved(['a', 'b', 'c'], 'c', 1)).toBeNull();
    expect(moved(['a'], 'x', 1)).toBeNull();
  });
  it('describes each change, or none until it is complete', () => {
    const f = { playlistId: '', groupId: '', timeZone: 'Asia/Tokyo' };
    expect(bulkChangeOf({ ...f, kind: 'assign' })).toEqual({ kind: 'assign', assignment: { kind: 'none' } });
    expect(bulkChangeOf({ ...f, kind: 'assign', playlistId: 'p' })).toEqual({
      kind: 'assign',
      assignment: { kind: 'playlist', playlistId: 'p' },
    });
    expect(bulkChangeOf({ ...f, kind: 'add-to-group' })).toBeNull();
    expect(bulkChangeOf({ ...f, kind: 'remove-from-group', groupId: 'g' })).toEqual({
      kind: 'remove-from-group',
      groupId: 'g',
    });
    expect(bulkChangeOf({ ...f, kind: 'set-time-zone' })).toEqual({ kind: 'set-time-zone', timeZone: 'Asia/Tokyo' });
    expect(bulkChangeOf({ ...f, kind: 'unpair' })).toEqual({ kind: 'unpair' });
  });
});
