import { Card, CardContent, CardHeader, CardTitle, useAuth } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@pagecast/i18n';
import { takeoverLogQuery } from '../api/fleet-api';
import { useNames } from '../../../lib/use-names';
import '../../../components/layout/layout.css';

/**
 * The takeover log: every start and end, who, when, which screens (by name), what (a message's title and words),
 * newest first; on a phone each entry is a card of labelled lines (no columns hidden off the side).
 */
export function LogSection() {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const log = useQuery(takeoverLogQuery);
  const names = useNames();
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' });
  const entries = log.data ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>{t('fleet.log.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        {entries.length === 0 ? (
          <p className="pc-muted">{t('fleet.log.none')}</p>
        ) : (
          <table className="pf-table pl-card-table" data-testid="fleet-log">
            <thead>
              <tr>
                <th scope="col">{t('fleet.log.when')}</th>
                <th scope="col">{t('fleet.log.action')}</th>
                <th scope="col">{t('fleet.log.who')}</th>
                <th scope="col">{t('fleet.log.screens')}</th>
                <th scope="col">{t('fleet.log.what')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={`${e.takeoverId}-${e.action}`}>
                  <td data-label={t('fleet.log.when')}>{when.format(new Date(e.at))}</td>
                  <td data-label={t('fleet.log.action')}>
                    {e.action === 'start' ? t('fleet.log.started') : t('fleet.log.ended')}
                  </td>
                  <td data-label={t('fleet.log.who')}>
                    {e.source === 'feed'
                      ? t('alerts.log.byFeed')
                      : e.by === null
                        ? t('fleet.log.onTime')
                        : e.by === user?.id
                          ? t('fleet.log.you')
                          : t('fleet.log.member')}
                  </td>
                  <td data-label={t('fleet.log.screens')} data-testid="fleet-log-screens">
                    {names.screens(e.screenIds)}
                  </td>
                  <td data-label={t('fleet.log.what')} data-testid="fleet-log-what">
                    {e.content.kind === 'message' ? (
                      <>
                        {t('fleet.log.message', { title: e.content.title })}
                        {e.content.body ? <span className="pf-log__body">{e.content.body}</span> : null}
                      </>
                    ) : e.content.kind === 'alert' ? (
                      <>
                        {names.alert(e.content)}
                        {e.content.drill ? <span className="pf-log__body">{t('alerts.log.drill')}</span> : null}
                      </>
                    ) : (
                      names.file(e.content.fileId)
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CardContent>
    </Card>
  );
}
