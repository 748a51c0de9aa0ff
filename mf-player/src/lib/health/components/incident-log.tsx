import { describeError, Spinner } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@pagecast/i18n';
import { incidentsQuery } from '../api/health-api';
import '../../../components/layout/layout.css';

/** A screen's incident log (read when shown): state, from, to, and when the e-mails went. */
export function IncidentLog({ screenId }: { screenId: string }) {
  const { t, i18n } = useTranslation();
  const incidents = useQuery(incidentsQuery(screenId));
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));
  if (incidents.isLoading) return <Spinner size="sm" />;
  if (incidents.error) return <p role="alert">{describeError(incidents.error, t, t('screens.loadFailed'))}</p>;
  const rows = incidents.data ?? [];
  if (rows.length === 0) return <p className="pc-muted pl-small">{t('screens.health.incidentsNone')}</p>;
  return (
    <div className="ph-table-wrap">
      <table className="ph-table" data-testid="incident-log">
        <thead>
          <tr>
            <th scope="col">{t('screens.health.incidentState')}</th>
            <th scope="col">{t('screens.health.incidentFrom')}</th>
            <th scope="col">{t('screens.health.incidentTo')}</th>
            <th scope="col">{t('screens.health.incidentEmailed')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((incident) => (
            <tr key={incident.id} data-testid="incident" data-state={incident.state}>
              <td>{t(`screens.health.state.${incident.state}`)}</td>
              <td>{when(incident.startedAt)}</td>
              <td>{incident.endedAt ? when(incident.endedAt) : t('screens.health.ongoing')}</td>
              <td>
                {incident.alertedAt || incident.recoveryAlertedAt ? (
                  <>
                    {incident.alertedAt ? (
                      <span className="ph-line">
                        {t('screens.health.emailedDown', { time: when(incident.alertedAt) })}
                      </span>
                    ) : null}
                    {incident.recoveryAlertedAt ? (
                      <span className="ph-line">
                        {t('screens.health.emailedRecovered', { time: when(incident.recoveryAlertedAt) })}
                      </span>
                    ) : null}
                  </>
                ) : (
                  t('screens.health.notEmailed')
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
