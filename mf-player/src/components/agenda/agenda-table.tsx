import type { ScreenAgenda, ScreenGroup, ScreenRotation } from '@pagecast/contracts';
import { useTranslation } from '@pagecast/i18n';
import { OrientationIcon } from '../../lib/health/components/orientation-icon';
import { useNames } from '../../lib/use-names';
import '../layout/layout.css';
import './agenda.css';

/**
 * One screen's days ahead: what plays from when to when and why, gaps, usage periods ending. Fleet control shows a
 * screen's or a group's; a proposal shows the one it would give beside the one it has now.
 */
export function AgendaTable({
  agenda,
  title,
  rotation,
  groups,
  level = 3,
  caption,
}: {
  agenda: ScreenAgenda;
  title: string;
  /** the heading's words instead of the screen's name (a proposal's "now" and "if approved") */
  caption?: string;
  /** the screen as it hangs, beside its entries */
  rotation: ScreenRotation;
  groups: readonly ScreenGroup[];
  /** the heading's level (a section of the page below an h2, or below an h3 in a proposal's comparison) */
  level?: 3 | 4;
}) {
  const { t, i18n } = useTranslation();
  const names = useNames();
  const Heading = level === 3 ? 'h3' : 'h4';
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
      <Heading>
        {caption ?? title} <span className="pc-muted">({agenda.timeZone})</span>
      </Heading>
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
        <ul className="pf-agenda-list" data-testid="fleet-licence-ends">
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
