import { type BulkChange, type Screen, type ScreenGroup, SCREEN_DEFAULT_TIME_ZONE } from '@pagecast/contracts';
import { Button, Card, CardContent, CardHeader, CardTitle, describeError, Input, Label, toast } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { playlistsQuery } from '../../../lib/playlists';
import { useBulkChange } from '../api/fleet-api';
import {
  bulkChangeOf,
  type SelectionForm,
  type SelectionMode,
  selectedScreens,
  selectionOf,
} from '../model/fleet-model';
import { ConfirmDialog } from './confirm-dialog';

const MODES: SelectionMode[] = ['group', 'filter', 'hand'];
const KINDS: BulkChange['kind'][] = ['assign', 'add-to-group', 'remove-from-group', 'set-time-zone', 'unpair'];

/** Many screens, one change: pick them (by group, by a filter, by hand), say the change, confirm. */
export function BulkSection({ groups, screens }: { groups: ScreenGroup[]; screens: Screen[] }) {
  const { t } = useTranslation();
  const playlists = useQuery(playlistsQuery);
  const bulk = useBulkChange();
  const [form, setForm] = useState<SelectionForm>({
    mode: 'group',
    groupId: '',
    name: '',
    status: '',
    filterGroupId: '',
    chosen: new Set(),
  });
  const [change, setChange] = useState({
    kind: 'assign' as BulkChange['kind'],
    playlistId: '',
    groupId: '',
    timeZone: SCREEN_DEFAULT_TIME_ZONE,
  });
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const selection = selectionOf(form);
  const picked = useMemo(() => selectedScreens(selection, screens, groups), [selection, screens, groups]);
  const body = bulkChangeOf(change);
  const set = (patch: Partial<SelectionForm>) => setForm((f) => ({ ...f, ...patch }));
  const groupOptions = groups.map((g) => (
    <option key={g.id} value={g.id}>
      {g.name}
    </option>
  ));
  const apply = () => {
    if (!selection || !body) return;
    setError(null);
    bulk.mutate(
      { selection, change: body },
      {
        onSuccess: (result) => {
          setConfirming(false);
          toast({ title: t('fleet.bulk.done', { count: result.screenIds?.length ?? picked.length }) });
        },
        onError: (err) => setError(describeError(err, t, t('fleet.failed'))),
      },
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>{t('fleet.bulk.title')}</CardTitle>
        <p className="pc-muted">{t('fleet.bulk.intro')}</p>
      </CardHeader>
      <CardContent className="pc-stack">
        <div className="pc-field pf-narrow">
          <Label htmlFor="fleet-select-by">{t('fleet.bulk.selectBy')}</Label>
          <select
            id="fleet-select-by"
            className="pc-select"
            value={form.mode}
            onChange={(e) => set({ mode: e.target.value as SelectionMode })}
          >
            {MODES.map((mode) => (
              <option key={mode} value={mode}>
                {t(`fleet.bulk.by.${mode}`)}
              </option>
            ))}
          </select>
        </div>
        {form.mode === 'group' ? (
          <div className="pc-field">
            <Label htmlFor="fleet-bulk-group">{t('fleet.bulk.group')}</Label>
            <select
              id="fleet-bulk-group"
              className="pc-select"
              value={form.groupId}
              onChange={(e) => set({ groupId: e.target.value })}
            >
              <option value="">{t('fleet.bulk.chooseGroup')}</option>
              {groupOptions}
            </select>
          </div>
        ) : null}
        {form.mode === 'filter' ? (
          <div className="pf-inline">
            <div className="pc-field">
              <Label htmlFor="fleet-filter-name">{t('fleet.bulk.filterName')}</Label>
              <Input id="fleet-filter-name" value={form.name} onChange={(e) => set({ name: e.target.value })} />
            </div>
            <div className="pc-field">
              <Label htmlFor="fleet-filter-status">{t('fleet.bulk.filterStatus')}</Label>
              <select
                id="fleet-filter-status"
                className="pc-select"
                value={form.status}
                onChange={(e) => set({ status: e.target.value as SelectionForm['status'] })}
              >
                <option value="">{t('fleet.bulk.anyStatus')}</option>
                <option value="online">{t('fleet.bulk.online')}</option>
                <option value="offline">{t('fleet.bulk.offline')}</option>
              </select>
            </div>
            <div className="pc-field">
              <Label htmlFor="fleet-filter-group">{t('fleet.bulk.group')}</Label>
              <select
                id="fleet-filter-group"
                className="pc-select"
                value={form.filterGroupId}
                onChange={(e) => set({ filterGroupId: e.target.value })}
              >
                <option value="">{t('fleet.bulk.anyGroup')}</option>
                {groupOptions}
              </select>
            </div>
          </div>
        ) : null}
        {form.mode === 'hand' ? (
          <fieldset className="pf-checks">
            <legend>{t('fleet.bulk.screens')}</legend>
            {screens.length === 0 ? <p className="pc-muted">{t('fleet.noScreens')}</p> : null}
            {screens.map((s) => (
              <label key={s.id} className="pf-check">
                <input
                  type="checkbox"
                  checked={form.chosen.has(s.id)}
                  onChange={(e) => {
                    const chosen = new Set(form.chosen);
                    if (e.target.checked) chosen.add(s.id);
                    else chosen.delete(s.id);
                    set({ chosen });
                  }}
                />
                {s.name}
              </label>
            ))}
          </fieldset>
        ) : null}
        <p data-testid="fleet-bulk-count" aria-live="polite">
          {t('fleet.bulk.selected', { count: picked.length })}
        </p>
        <div className="pf-inline">
          <div className="pc-field">
            <Label htmlFor="fleet-bulk-change">{t('fleet.bulk.change')}</Label>
            <select
              id="fleet-bulk-change"
              className="pc-select"
              value={change.kind}
              onChange={(e) => setChange((c) => ({ ...c, kind: e.target.value as BulkChange['kind'] }))}
            >
              {KINDS.map((k) => (
                <option key={k} value={k}>
                  {t(`fleet.bulk.kinds.${k}`)}
                </option>
              ))}
            </select>
          </div>
          {change.kind === 'assign' ? (
            <div className="pc-field">
              <Label htmlFor="fleet-bulk-playlist">{t('fleet.bulk.playlist')}</Label>
              <select
                id="fleet-bulk-playlist"
                className="pc-select"
                value={change.playlistId}
                onChange={(e) => setChange((c) => ({ ...c, playlistId: e.target.value }))}
              >
                <option value="">{t('fleet.groups.nothing')}</option>
                {(playlists.data ?? []).map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          {change.kind === 'add-to-group' || change.kind === 'remove-from-group' ? (
            <div className="pc-field">
              <Label htmlFor="fleet-bulk-target-group">{t('fleet.bulk.group')}</Label>
              <select
                id="fleet-bulk-target-group"
                className="pc-select"
                value={change.groupId}
                onChange={(e) => setChange((c) => ({ ...c, groupId: e.target.value }))}
              >
                <option value="">{t('fleet.bulk.chooseGroup')}</option>
                {groupOptions}
              </select>
            </div>
          ) : null}
          {change.kind === 'set-time-zone' ? (
            <div className="pc-field">
              <Label htmlFor="fleet-bulk-zone">{t('fleet.bulk.timeZone')}</Label>
              <select
                id="fleet-bulk-zone"
                className="pc-select"
                value={change.timeZone}
                onChange={(e) => setChange((c) => ({ ...c, timeZone: e.target.value }))}
              >
                {Intl.supportedValuesOf('timeZone').map((z) => (
                  <option key={z} value={z}>
                    {z}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
        </div>
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
