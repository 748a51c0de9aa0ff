import type { GroupAgenda, Screen, ScreenAgenda, ScreenGroup, ScreenRotation } from '@pagecast/contracts';
import { Card, CardContent, CardHeader, CardTitle, describeError, FieldError, Label, Spinner } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { OrientationIcon } from '../../../lib/health/components/orientation-icon';
import { agendaQuery } from '../api/fleet-api';
import { useNames } from '../model/use-names';
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

function AgendaTable({
  agenda,
  title,
  rotation,
  groups,
}: {
  agenda: ScreenAgenda;
  title: string;
  /** the screen as it hangs, beside its entries */
  rotation: ScreenRotation;
  groups: ScreenGroup[];
}) {
  const { t, i18n } = useTranslation();
  const names = useNames();
  const when = new Intl.DateTimeFormat(i18n.language, {
    timeZone: agenda.timeZone,
    weekday: 'short',
    month: 'numeric',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  const what = (e: ScreenAgenda['entries'][number]) => {
    const p = e.playing;
    if (p.kind === 'playlist') return t('fleet.agenda.playlist', { name: names.playlist(p.playlistId) });
    if (p.kind === 'file') return t('fleet.agenda.file', { title: names.file(p.fileId) });
    if (p.kind === 'message') return t('fleet.log.message', { title: p.title });
    return t('fleet.agenda.gap');
  };
  const why = (e: ScreenAgenda['entries'][number]) => {
    const b = e.because;
    if (b.rule === 'takeover') return t('fleet.agenda.because.takeover');
    if (b.rule === 'screen') return t('fleet.agenda.because.screen');
    if (b.rule === 'group')
      return t('fleet.agenda.because.group', { name: groups.find((g) => g.id === b.groupId)?.name ?? '' });
    return t('fleet.agenda.because.none');
  };
  return (
    <section className="pc-stack" aria-label={t('fleet.agenda.ofScreen', { name: title })}>
      <h3>
        {title} <span className="pc-muted">({agenda.timeZone})</span>
      </h3>
      <p className="pf-hangs" data-testid="agenda-orientation" data-rotation={rotation}>
        <OrientationIcon rotation={rotation} />
        <span>{t('screens.health.rotation.hangs', { orientation: t(`screens.health.rotation.${rotation}`) })}</span>
      </p>
      <div className="pf-table-wrap">
        <table className="pf-table pl-card-table" data-testid="fleet-agenda">
          <thead>
            <tr>
              <th scope="col">{t('fleet.agenda.from')}</th>
              <th scope="col">{t('fleet.agenda.to')}</th>
              <th scope="col">{t('fleet.agenda.what')}</th>
              <th scope="col">{t('fleet.agenda.why')}</th>
            </tr>
          </thead>
          <tbody>
            {agenda.entries.map((e) => (
              <tr key={e.from} className={e.playing.kind === 'none' ? 'pf-gap' : undefined}>
                <td data-label={t('fleet.agenda.from')}>{when.format(new Date(e.from))}</td>
                <td data-label={t('fleet.agenda.to')}>{when.format(new Date(e.to))}</td>
                <td data-label={t('fleet.agenda.what')}>
                  {what(e)}
                  {e.stopped.length ? (
                    <span className="pf-stopped"> {t('fleet.agenda.stopped', { count: e.stopped.length })}</span>
                  ) : null}
                </td>
                <td data-label={t('fleet.agenda.why')}>{why(e)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {agenda.licenceEnds.length ? (
        <ul className="pf-list" data-testid="fleet-licence-ends">
          {agenda.licenceEnds.map((l) => (
            <li key={`${l.fileId}-${l.at}`}>
              {t('fleet.agenda.licenceEnds', { title: names.file(l.fileId), when: when.format(new Date(l.at)) })}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
