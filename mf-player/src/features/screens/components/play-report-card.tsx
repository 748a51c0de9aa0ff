import { Card, CardContent, CardDescription, CardHeader, CardTitle, describeError, Input, Label } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { playProofPath } from '../api/get-play-proof';
import { playReportPath, playReportQuery } from '../api/get-play-report';
import { useTitles } from '../model/titles';
import { ProofLinks } from './proof-links';
import { RefusedPlays } from './refused-plays';
import { SoldPlays } from './sold-plays';

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export function PlayReportCard() {
  const { t } = useTranslation();
  const [from, setFrom] = useState(() => isoDay(new Date(Date.now() - 6 * 86_400_000)));
  const [to, setTo] = useState(() => isoDay(new Date(Date.now() + 86_400_000)));
  const report = useQuery(playReportQuery(from, to));
  const titles = useTitles();
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>{t('screens.reportTitle')}</CardTitle>
        <CardDescription>{t('screens.board.reportHelp')}</CardDescription>
      </CardHeader>
      <CardContent className="pc-stack">
        <div className="ps-filters">
          <div className="ps-field">
            <Label htmlFor="plays-from">{t('screens.from')}</Label>
            <Input id="plays-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
          </div>
          <div className="ps-field">
            <Label htmlFor="plays-to">{t('screens.to')}</Label>
            <Input id="plays-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
          </div>
          <a className="pc-btn pc-btn--outline pc-btn--sm" href={playReportPath(from, to, 'csv')} download>
            {t('screens.exportCsv')}
          </a>
        </div>
        {report.error ? <p role="alert">{describeError(report.error, t, t('screens.loadFailed'))}</p> : null}
        {report.data && report.data.length === 0 ? (
          <p className="pl-empty" data-testid="play-report-empty">
            {t('screens.board.reportEmpty')}
          </p>
        ) : null}
        {report.data?.length ? (
          <div className="ps-table-wrap ps-table-wrap--cards">
            <table className="pc-table ps-table pl-card-table" data-testid="play-report">
              <thead>
                <tr>
                  <th>{t('screens.day')}</th>
                  <th>{t('screens.screen')}</th>
                  <th>{t('screens.file')}</th>
                  <th className="ps-num">{t('screens.playCount')}</th>
                  <th className="ps-num">{t('screens.seconds')}</th>
                </tr>
              </thead>
              <tbody>
                {report.data.map((r) => (
                  <tr key={`${r.day}-${r.screenId}-${r.fileId}`}>
                    <td data-label={t('screens.day')}>{r.day}</td>
                    <td data-label={t('screens.screen')}>{r.screenName}</td>
                    <td data-label={t('screens.file')} data-testid="play-file">
                      {titles.file(r.fileId) ?? t('screens.board.unknownFile')}
                    </td>
                    <td data-label={t('screens.playCount')} data-testid="play-count" className="ps-num">
                      {r.plays}
                    </td>
                    <td data-label={t('screens.seconds')} className="ps-num">
                      {Math.round(r.seconds)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {report.data?.length ? (
          <ProofLinks
            fileIds={[...new Set(report.data.map((r) => r.fileId))]}
            pathOf={(fileId) => playProofPath(fileId, from, to)}
            titleOf={(fileId) => titles.file(fileId) ?? t('screens.board.unknownFile')}
            help={t('screens.proofHelp')}
            testId="play-proof"
          />
        ) : null}
        <RefusedPlays from={from} to={to} />
        <SoldPlays from={from} to={to} />
      </CardContent>
    </Card>
  );
}
