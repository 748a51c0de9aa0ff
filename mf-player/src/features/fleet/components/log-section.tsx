import { Card, CardContent, CardHeader, CardTitle, useAuth } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@pagecast/i18n';
import { takeoverLogQuery } from '../api/fleet-api';
import { useNames } from '../model/use-names';

/** The takeover log: every start and end, who, when, which screens, what (newest first). */
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
          <div className="pf-table-wrap">
            <table className="pf-table" data-testid="fleet-log">
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
                    <td>{when.format(new Date(e.at))}</td>
                    <td>{e.action === 'start' ? t('fleet.log.started') : t('fleet.log.ended')}</td>
                    <td>
                      {e.by === null
                        ? t('fleet.log.onTime')
                        : e.by === user?.id
                          ? t('fleet.log.you')
                          : t('fleet.log.member')}
                    </td>
                    <td>{t('fleet.takeover.onScreens', { count: e.screenIds.length })}</td>
                    <td>
                      {e.content.kind === 'message'
                        ? t('fleet.log.message', { title: e.content.title })
                        : names.file(e.content.fileId)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
