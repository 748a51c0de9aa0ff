import {
  ALERT_AFTER_MINUTES_DEFAULT,
  type OpeningSpan,
  type Screen,
  type ScreenAssignment,
  type ScreenGroup,
  type ScreenPlace,
} from '@pagecast/contracts';
import {
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  describeError,
  FieldError,
  IconArrowDown,
  IconArrowUp,
  Input,
  Label,
  toast,
} from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { accessibleFilesQuery } from '../../../lib/accessible-files';
import { PlacePicker } from '../../../lib/alerts/place-picker';
import { OpeningHoursEditor } from '../../../lib/health/components/opening-hours-editor';
import { ScheduleFields } from '../../../components/schedule/schedule-fields';
import { fieldErrors } from '../../../lib/health/model/health-text';
import { playlistsQuery } from '../../../lib/playlists';
import { assignmentOf, draftOf } from '../../../lib/schedule-form';
import { useCreateGroup, useDeleteGroup, useOrderGroups, useUpdateGroup } from '../api/fleet-api';
import { moved } from '../model/fleet-model';
import { useMay } from '../../../lib/use-may';
import { ApprovalNote, useWaiting, WaitingNotice } from '../../../components/approval/waiting';
import type { Proposal } from '@pagecast/contracts';
import { ConfirmDialog } from './confirm-dialog';
import { CheckList, SelectField } from './fields';
import '../../../components/layout/layout.css';

/**
 * Groups: made, renamed, deleted, their screens, their order (precedence) and what they play. A role without
 * groups.write (every route that changes a group) sees the groups in their order, and no way to change them.
 */
export function GroupsSection({ groups, screens }: { groups: ScreenGroup[]; screens: Screen[] }) {
  const { t } = useTranslation();
  const mayChange = useMay('groups.write');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateGroup();
  const order = useOrderGroups();
  // a new group, a new order or a deletion that waits for approval: said once for the section
  const { waiting, report, clear } = useWaiting();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    clear();
    create.mutate(
      { name },
      {
        onSuccess: (result) => {
          if (result.waiting) report(result.waiting);
          else toast({ title: t('fleet.groups.created', { name: name.trim() }) });
          setName('');
        },
        onError: (err) => setError(describeError(err, t, t('fleet.failed'))),
      },
    );
  };
  const ids = groups.map((g) => g.id);
  const move = (id: string, by: -1 | 1) => {
    const next = moved(ids, id, by);
    if (next)
      order.mutate(next, {
        onSuccess: (result) => (result.waiting ? report(result.waiting) : undefined),
        onError: (err) => toast({ title: describeError(err, t, t('fleet.failed')), variant: 'destructive' }),
      });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>{t('fleet.groups.title')}</CardTitle>
        <p className="pc-muted">{t('fleet.groups.precedence')}</p>
      </CardHeader>
      <CardContent className="pc-stack">
        {mayChange ? (
          <>
            <form
              className="pf-inline"
              onSubmit={submit}
              aria-label={t('fleet.groups.create')}
              data-testid="fleet-group-create"
            >
              <div className="pc-field">
                <Label htmlFor="fleet-group-name">{t('fleet.groups.name')}</Label>
                <Input
                  id="fleet-group-name"
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  maxLength={60}
                  required
                />
              </div>
              <Button type="submit" loading={create.isPending}>
                {t('fleet.groups.create')}
              </Button>
            </form>
            <FieldError>{error}</FieldError>
            <WaitingNotice proposal={waiting} />
            <ApprovalNote />
          </>
        ) : null}
        {groups.length === 0 ? (
          <p className="pc-muted">{t('fleet.groups.none')}</p>
        ) : (
          <ol className="pf-groups" data-testid="fleet-groups">
            {groups.map((g, index) => (
              <GroupRow
                key={g.id}
                group={g}
                screens={screens}
                first={index === 0}
                last={index === groups.length - 1}
                onMove={(by) => move(g.id, by)}
                onWaiting={report}
                mayChange={mayChange}
              />
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

function GroupRow({
  group,
  screens,
  first,
  last,
  onMove,
  onWaiting,
  mayChange,
}: {
  group: ScreenGroup;
  screens: Screen[];
  first: boolean;
  last: boolean;
  onMove: (by: -1 | 1) => void;
  /** the deletion waits for approval */
  onWaiting: (proposal: Proposal) => void;
  /** groups.write: move, edit and delete are offered */
  mayChange: boolean;
}) {
  const { t } = useTranslation();
  const remove = useDeleteGroup();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  return (
    <li className="pf-group" data-testid={`fleet-group-${group.id}`}>
      <div className="pf-group__head">
        <span className="pf-group__rank" aria-hidden="true">
          {group.rank + 1}
        </span>
        <strong>{group.name}</strong>
        <span className="pc-muted">{t('fleet.groups.members', { count: group.screenIds.length })}</span>
        {mayChange ? (
          <span className="pf-group__actions" data-testid="fleet-group-order">
            <Button variant="outline" size="sm" disabled={first} onClick={() => onMove(-1)}>
              <IconArrowUp />
              {t('fleet.groups.up', { name: group.name })}
            </Button>
            <Button variant="outline" size="sm" disabled={last} onClick={() => onMove(1)}>
              <IconArrowDown />
              {t('fleet.groups.down', { name: group.name })}
            </Button>
          </span>
        ) : null}
      </div>
      {mayChange ? (
        <details data-testid="fleet-group-edit">
          <summary>{t('fleet.groups.edit', { name: group.name })}</summary>
          <GroupForm group={group} screens={screens} onDelete={() => setConfirmDelete(true)} />
        </details>
      ) : null}
      {confirmDelete ? (
        <ConfirmDialog
          title={t('fleet.groups.deleteTitle')}
          confirm={t('fleet.groups.delete')}
          destructive
          pending={remove.isPending}
          error={deleteError}
          onClose={() => setConfirmDelete(false)}
          onConfirm={() =>
            remove.mutate(group.id, {
              onSuccess: (result) => {
                setConfirmDelete(false);
                if (result.waiting) onWaiting(result.waiting);
              },
              onError: (err) => setDeleteError(describeError(err, t, t('fleet.failed'))),
            })
          }
        >
          <p>{t('fleet.groups.deleteConfirm', { name: group.name, count: group.screenIds.length })}</p>
        </ConfirmDialog>
      ) : null}
    </li>
  );
}

/** 'playlist:<id>', 'file:<id>' (one list, grouped by kind), 'schedule' (its day parts below) or '' (nothing) */
const playsOf = (assignment: ScreenAssignment) =>
  assignment.kind === 'playlist'
    ? `playlist:${assignment.playlistId}`
    : assignment.kind === 'file'
      ? `file:${assignment.fileId}`
      : assignment.kind === 'schedule'
        ? 'schedule'
        : '';

/** A group's settings: its name, its screens, what it plays, its screens' opening hours and alert threshold. */
function GroupForm({ group, screens, onDelete }: { group: ScreenGroup; screens: Screen[]; onDelete: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateGroup();
  const [name, setName] = useState(group.name);
  const [members, setMembers] = useState<Set<string>>(() => new Set(group.screenIds));
  const [plays, setPlays] = useState(() => playsOf(group.assignment));
  const [schedule, setSchedule] = useState(() => draftOf(group.assignment));
  const [error, setError] = useState<string | null>(null);
  // its screens' opening hours (none = always open) and its alert threshold in minutes
  const [spans, setSpans] = useState<OpeningSpan[]>(group.openingHours ?? []);
  const [alertAfter, setAlertAfter] = useState(String(group.alertAfterMinutes ?? ALERT_AFTER_MINUTES_DEFAULT));
  const [fields, setFields] = useState<Map<string, string>>(new Map());
  const [place, setPlace] = useState<ScreenPlace>(group.place ?? null);
  const { waiting, report, clear } = useWaiting();
  const save = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    clear();
    setFields(new Map());
    const [kind, id = ''] = plays.split(':');
    const assignment: ScreenAssignment =
      kind === 'playlist'
        ? { kind: 'playlist', playlistId: id }
        : kind === 'file'
          ? { kind: 'file', fileId: id }
          : kind === 'schedule'
            ? assignmentOf({ ...schedule, kind: 'schedule' })
            : { kind: 'none' };
    update.mutate(
      {
        id: group.id,
        body: {
          name,
          screenIds: [...members],
          assignment,
          openingHours: spans.length ? spans : null,
          // an empty or odd entry goes as it is: the server says what is wrong, by field
          alertAfterMinutes: alertAfter.trim() === '' ? Number.NaN : Number(alertAfter),
          ...(JSON.stringify(place) !== JSON.stringify(group.place ?? null) ? { place } : {}),
        },
      },
      {
        onSuccess: (result) =>
          result.waiting ? report(result.waiting) : toast({ title: t('fleet.groups.saved', { name: name.trim() }) }),
        onError: (err) => {
          const byField = fieldErrors(err, t);
          setFields(byField);
          const shown = [...byField.keys()].some((k) => k === 'alertAfterMinutes' || k.startsWith('openingHours'));
          setError(shown ? null : describeError(err, t, t('fleet.failed')));
        },
      },
    );
  };
  const nameId = `fleet-group-${group.id}-name`;
  return (
    <form className="pc-stack pf-group__form" onSubmit={save}>
      <div className="pc-field">
        <Label htmlFor={nameId}>{t('fleet.groups.name')}</Label>
        <Input id={nameId} value={name} onChange={(e) => setName(e.target.value)} maxLength={60} required />
      </div>
      <CheckList
        legend={t('fleet.groups.screens')}
        items={screens}
        checked={members}
        onChange={setMembers}
        empty={t('fleet.noScreens')}
      />
      <PlaysField group={group} plays={plays} onPlays={setPlays} />
      {plays === 'schedule' ? (
        <ScheduleFields
          idPrefix={`fleet-group-${group.id}-schedule`}
          draft={schedule}
          onChange={(patch) => setSchedule((d) => ({ ...d, ...patch }))}
        />
      ) : null}
      <OpeningHoursEditor
        idPrefix={`fleet-group-${group.id}-hours`}
        spans={spans}
        onChange={setSpans}
        noneLabel={t('screens.health.hours.none')}
        errors={fields}
      />
      <p className="pc-muted pl-small">{t('screens.health.group.hours')}</p>
      <AlertAfterField
        id={`fleet-group-${group.id}-alert`}
        value={alertAfter}
        onChange={setAlertAfter}
        error={fields}
      />
      <PlacePicker value={place} onChange={setPlace} noneLabel={t('alerts.place.noneGroup')} />
      <FieldError>{error}</FieldError>
      <WaitingNotice proposal={waiting} />
      <ApprovalNote />
      <div className="pf-inline">
        <Button type="submit" loading={update.isPending}>
          {t('fleet.groups.save')}
        </Button>
        <Button type="button" variant="destructive" onClick={onDelete}>
          {t('fleet.groups.delete')}
        </Button>
      </div>
    </form>
  );
}

/** What the group plays: nothing, a weekly schedule, a playlist or a file (one list, grouped by kind). */
function PlaysField({ group, plays, onPlays }: { group: ScreenGroup; plays: string; onPlays: (v: string) => void }) {
  const { t } = useTranslation();
  const playlists = useQuery(playlistsQuery);
  const files = useQuery(accessibleFilesQuery);
  return (
    <SelectField id={`fleet-group-${group.id}-plays`} label={t('fleet.groups.plays')} value={plays} onChange={onPlays}>
      <option value="">{t('fleet.groups.nothing')}</option>
      <option value="schedule">{t('fleet.groups.schedule')}</option>
      <optgroup label={t('fleet.groups.playlists')}>
        {(playlists.data ?? []).map((p) => (
          <option key={p.id} value={`playlist:${p.id}`}>
            {p.name}
          </option>
        ))}
      </optgroup>
      <optgroup label={t('fleet.groups.files')}>
        {(files.data ?? []).map((f) => (
          <option key={f.id} value={`file:${f.id}`}>
            {f.title}
          </option>
        ))}
      </optgroup>
    </SelectField>
  );
}

/** Minutes a bad state lasts before it is an incident and mailed (the server says what is wrong with an entry). */
function AlertAfterField({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  error: Map<string, string>;
}) {
  const { t } = useTranslation();
  return (
    <div className="pc-field pf-narrow">
      <Label htmlFor={id}>{t('screens.health.group.alertAfter')}</Label>
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        step={1}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={`${id}-help`}
      />
      <p id={`${id}-help`} className="pc-muted pl-small">
        {t('screens.health.group.alertAfterHelp')}
      </p>
      <FieldError>{error.get('alertAfterMinutes') ?? null}</FieldError>
    </div>
  );
}
