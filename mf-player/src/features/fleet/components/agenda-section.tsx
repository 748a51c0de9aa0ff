import type { GroupAgenda, Screen, ScreenAgenda, ScreenGroup } from '@pagecast/contracts';
import { Card, CardContent, CardHeader, CardTitle, describeError, FieldError, Label, Spinner } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { AgendaTable } from '../../../components/agenda/agenda-table';
import { agendaQuery } from '../api/fleet-api';
import '../../../components/layout/layout.css';

/** The 7 days ahead of a screen or a group: what plays from when to when and why, gaps, licence ends. */
export function AgendaSection({ groups, screens }: { groups: ScreenGroup[]; screens: Screen[] }) {
  const { t } = useTranslation();
  const [target, setTarget] = useState('');
  const [kind, id] = target.split(':') as ['screen' | 'group', string];
  const agenda = useQuery({ ...agendaQuery({ kind: kind ?? 'screen', id: id ?? '' }), enabled: Boolean(target) });
  const data = agenda.data;
  const agendas: ScreenAgenda[] = !data
    ? []
    : 'screens' in data
      ? (data as GroupAgenda).screens
      : [data as ScreenAgenda];
  const screenName = (sid: string) => screens.find((s) => s.id === sid)?.name ?? '';
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>{t('fleet.agenda.title')}</CardTitle>
        <p className="pc-muted">{t('fleet.agenda.intro')}</p>
      </CardHeader>
      <CardContent className="pc-stack">
        <div className="pc-field pf-narrow">
          <Label htmlFor="fleet-agenda-of">{t('fleet.agenda.of')}</Label>
          <select id="fleet-agenda-of" className="pc-select" value={target} onChange={(e) => setTarget(e.target.value)}>
            <option value="">{t('fleet.agenda.choose')}</option>
            <optgroup label={t('fleet.agenda.screens')}>
              {screens.map((s) => (
                <option key={s.id} value={`screen:${s.id}`}>
                  {s.name}
                </option>
              ))}
            </optgroup>
            <optgroup label={t('fleet.groups.title')}>
              {groups.map((g) => (
                <option key={g.id} value={`group:${g.id}`}>
                  {g.name}
                </option>
              ))}
            </optgroup>
          </select>
        </div>
        {agenda.isLoading && target ? <Spinner size="sm" /> : null}
        {agenda.isError ? <FieldError>{describeError(agenda.error, t, t('fleet.failed'))}</FieldError> : null}
        {agendas.map((a) => (
          <AgendaTable
            key={a.screenId}
            agenda={a}
            title={screenName(a.screenId)}
            rotation={screens.find((s) => s.id === a.screenId)?.rotation ?? 0}
            groups={groups}
          />
        ))}
      </CardContent>
    </Card>
  );
}
