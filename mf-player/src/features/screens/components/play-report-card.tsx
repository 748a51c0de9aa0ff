import { Card, CardContent, CardHeader, describeError, Input, Label } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { playReportPath, playReportQuery } from '../api/get-play-report';
import { RefusedPlays } from './refused-plays';
import { SoldPlays } from './sold-plays';

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export function PlayReportCard() {
  const { t } = useTranslation();
  const [from, setFrom] = useState(() => isoDay(new Date(Date.now() - 6 * 86_400_000)));
  const [to, setTo] = useState(() => isoDay(new Date(Date.now() + 86_400_000)));
  const report = useQuery(playReportQuery(from, to));
  return (
    <Card>
      <CardHeader>
        <h2>{t('screens.reportTitle')}</h2>
      </CardHeader>
      <CardContent>
        <div className="pc-row">
          <Label htmlFor="plays-from">{t('screens.from')}</Label>
          <Input id="plays-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
          <Label htmlFor="plays-to">{t('screens.to')}</Label>
          <Input id="plays-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
          <a className="pc-btn pc-btn--outline pc-btn--sm" href={playReportPath(from, to, 'csv')} download>
            {t('screens.exportCsv')}
          </a>
        </div>
        {report.error ? <p role="alert">{describeError(report.error, t, t('screens.loadFailed'))}</p> : null}
        <table className="pc-table" data-testid="play-report">
          <thead>
            <tr>
              <th>{t('screens.day')}</th>
              <th>{t('screens.screen')}</th>
              <th>{t('screens.file')}</th>
              <th>{t('screens.playCount')}</th>
              <th>{t('screens.seconds')}</th>
            </tr>
          </thead>
          <tbody>
            {(report.data ?? []).map((r) => (
              <tr key={`${r.day}-${r.screenId}-${r.fileId}`}>
                <td>{r.day}</td>
                <td>{r.screenName}</td>
                <td>{r.fileId}</td>
                <td data-testid="play-count">{r.plays}</td>
                <td>{Math.round(r.seconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <RefusedPlays from={from} to={to} />
        <SoldPlays from={from} to={to} />
      </CardContent>
    </Card>
  );
}
