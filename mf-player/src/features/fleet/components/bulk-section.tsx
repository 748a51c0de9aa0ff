import { type BulkChange, type Screen, type ScreenGroup, SCREEN_DEFAULT_TIME_ZONE } from '@pagecast/contracts';
import { Button, Card, CardContent, CardHeader, CardTitle, describeError, Input, Label, toast } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { playlistsQuery } from '../../../lib/playlists';
import { useBulkChange } from '../api/fleet-api';
import { useMay } from '../../../lib/use-may';
import {
  bulkChangeOf,
  type SelectionForm,
  type SelectionMode,
  selectedScreens,
  selectionOf,
} from '../model/fleet-model';
import { ApprovalNote, useWaiting, WaitingNotice } from '../../../components/approval/waiting';
import { ConfirmDialog } from './confirm-dialog';
import { CheckList, NameOptions, SelectField } from './fields';

const MODES: SelectionMode[] = ['group', 'filter', 'hand'];
const KINDS: BulkChange['kind'][] = ['assign', 'add-to-group', 'remove-from-group', 'set-time-zone', 'unpair'];

/**
 * Many screens, one change: pick them (by group, by a filter, by hand), say the change, confirm. Only for a role with
 * screens.assign (POST /api/screens/bulk); unpairing among the changes only with screens.manage, as the server asks.
 */
export function BulkSection({ groups, screens }: { groups: ScreenGroup[]; screens: Screen[] }) {
  const mayChange = useMay('screens.assign');
  return mayChange ? <BulkCard groups={groups} screens={screens} /> : null;
}

function BulkCard({ groups, screens }: { groups: ScreenGroup[]; screens: Screen[] }) {
  const { t } = useTranslation();
  const bulk = useBulkChange();
  const [form, setForm] = useState<SelectionForm>({
    mode: 'group',
    groupId: '',
    name: '',
    status: '',
    filterGroupId: '',
    chosen: new Set(),
  });
  const [change, setChange] = useState<ChangeForm>({
    kind: 'assign',
    playlistId: '',
    groupId: '',
    timeZone: SCREEN_DEFAULT_TIME_ZONE,
  });
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { waiting, report, clear } = useWaiting();
  const selection = selectionOf(form);
  const picked = useMemo(() => selectedScreens(selection, screens, groups), [selection, screens, groups]);
  const body = bulkChangeOf(change);
  const set = (patch: Partial<SelectionForm>) => setForm((f) => ({ ...f, ...patch }));
  const apply = () => {
    if (!selection || !body) return;
    setError(null);
    clear();
    bulk.mutate(
      { selection, change: body },
      {
        onSuccess: (result) => {
          setConfirming(false);
          if (result.waiting) report(result.waiting);
          else toast({ title: t('fleet.bulk.done', { count: result.done?.screenIds?.length ?? picked.length }) });
        },
        onError: (err) => setError(describeError(err, t, t('fleet.failed'))),
      },
    );
  };
  return (
    <Card data-testid="fleet-bulk">
      <CardHeader>
        <CardTitle level={2}>{t('fleet.bulk.title')}</CardTitle>
        <p className="pc-muted">{t('fleet.bulk.intro')}</p>
      </CardHeader>
      <CardContent className="pc-stack">
        <SelectionFields form={form} set={set} groups={groups} screens={screens} />
        <p data-testid="fleet-bulk-count" aria-live="polite">
          {t('fleet.bulk.selected', { count: picked.length })}
        </p>
        <ChangeFields change={change} setChange={setChange} groups={groups} />
        <WaitingNotice proposal={waiting} />
        <ApprovalNote />
        <div>
          <Button
            onClick={() => {
              setError(null);
              setConfirming(true);
            }}
            disabled={!selection || !body || picked.length === 0}
            variant={change.kind === 'unpair' ? 'destructive' : 'primary'}
          >
            {t('fleet.bulk.apply')}
          </Button>
        </div>
        {confirming ? (
          <ConfirmDialog
            title={t('fleet.bulk.confirmTitle')}
            confirm={t('fleet.bulk.confirm', { count: picked.length })}
            destructive={change.kind === 'unpair'}
            pending={bulk.isPending}
            error={error}
            onClose={() => setConfirming(false)}
            onConfirm={apply}
          >
            <p>
              {t(`fleet.bulk.kinds.${change.kind}`)} — {t('fleet.bulk.selected', { count: picked.length })}
            </p>
            <ul className="pf-names">
              {picked.slice(0, 20).map((s) => (
                <li key={s.id}>{s.name}</li>
              ))}
              {picked.length > 20 ? <li>{t('fleet.bulk.more', { count: picked.length - 20 })}</li> : null}
            </ul>
          </ConfirmDialog>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** Which screens: by a group, by a filter (name, status, group) or ticked by hand. */
function SelectionFields({
  form,
  set,
  groups,
  screens,
}: {
  form: SelectionForm;
  set: (patch: Partial<SelectionForm>) => void;
  groups: ScreenGroup[];
  screens: Screen[];
}) {
  const { t } = useTranslation();
  return (
    <>
      <SelectField
        id="fleet-select-by"
        label={t('fleet.bulk.selectBy')}
        value={form.mode}
        onChange={(mode) => set({ mode: mode as SelectionMode })}
        narrow
      >
        {MODES.map((mode) => (
          <option key={mode} value={mode}>
            {t(`fleet.bulk.by.${mode}`)}
          </option>
        ))}
      </SelectField>
      {form.mode === 'group' ? (
        <SelectField
          id="fleet-bulk-group"
          label={t('fleet.bulk.group')}
          value={form.groupId}
          onChange={(groupId) => set({ groupId })}
        >
          <NameOptions items={groups} none={t('fleet.bulk.chooseGroup')} />
        </SelectField>
      ) : null}
      {form.mode === 'filter' ? (
        <div className="pf-inline">
          <div className="pc-field">
            <Label htmlFor="fleet-filter-name">{t('fleet.bulk.filterName')}</Label>
            <Input id="fleet-filter-name" value={form.name} onChange={(e) => set({ name: e.target.value })} />
          </div>
          <SelectField
            id="fleet-filter-status"
            label={t('fleet.bulk.filterStatus')}
            value={form.status}
            onChange={(status) => set({ status: status as SelectionForm['status'] })}
          >
            <option value="">{t('fleet.bulk.anyStatus')}</option>
            <option value="online">{t('fleet.bulk.online')}</option>
            <option value="offline">{t('fleet.bulk.offline')}</option>
          </SelectField>
          <SelectField
            id="fleet-filter-group"
            label={t('fleet.bulk.group')}
            value={form.filterGroupId}
            onChange={(filterGroupId) => set({ filterGroupId })}
          >
            <NameOptions items={groups} none={t('fleet.bulk.anyGroup')} />
          </SelectField>
        </div>
      ) : null}
      {form.mode === 'hand' ? (
        <CheckList
          legend={t('fleet.bulk.screens')}
          items={screens}
          checked={form.chosen}
          onChange={(chosen) => set({ chosen })}
          empty={t('fleet.noScreens')}
        />
      ) : null}
    </>
  );
}

type ChangeForm = { kind: BulkChange['kind']; playlistId: string; groupId: string; timeZone: string };

/** The one change: its kind, then what it needs (a playlist, a group, a time zone). */
function ChangeFields({
  change,
  setChange,
  groups,
}: {
  change: ChangeForm;
  setChange: (update: (c: ChangeForm) => ChangeForm) => void;
  groups: ScreenGroup[];
}) {
  const { t } = useTranslation();
  const playlists = useQuery(playlistsQuery);
  const mayUnpair = useMay('screens.manage');
  const patch = (p: Partial<ChangeForm>) => setChange((c) => ({ ...c, ...p }));
  return (
    <div className="pf-inline">
      <SelectField
        id="fleet-bulk-change"
        label={t('fleet.bulk.change')}
        value={change.kind}
        onChange={(kind) => patch({ kind: kind as BulkChange['kind'] })}
      >
        {KINDS.filter((k) => k !== 'unpair' || mayUnpair).map((k) => (
          <option key={k} value={k}>
            {t(`fleet.bulk.kinds.${k}`)}
          </option>
        ))}
      </SelectField>
      {change.kind === 'assign' ? (
        <SelectField
          id="fleet-bulk-playlist"
          label={t('fleet.bulk.playlist')}
          value={change.playlistId}
          onChange={(playlistId) => patch({ playlistId })}
        >
          <NameOptions items={playlists.data ?? []} none={t('fleet.groups.nothing')} />
        </SelectField>
      ) : null}
      {change.kind === 'add-to-group' || change.kind === 'remove-from-group' ? (
        <SelectField
          id="fleet-bulk-target-group"
          label={t('fleet.bulk.group')}
          value={change.groupId}
          onChange={(groupId) => patch({ groupId })}
        >
          <NameOptions items={groups} none={t('fleet.bulk.chooseGroup')} />
        </SelectField>
      ) : null}
      {change.kind === 'set-time-zone' ? (
        <SelectField
          id="fleet-bulk-zone"
          label={t('fleet.bulk.timeZone')}
          value={change.timeZone}
          onChange={(timeZone) => patch({ timeZone })}
        >
          {Intl.supportedValuesOf('timeZone').map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </SelectField>
      ) : null}
    </div>
  );
}
