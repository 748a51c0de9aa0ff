import { describeError } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@pagecast/i18n';
import { soldPlayProofPath } from '../api/get-play-proof';
import { soldPlaysQuery } from '../api/get-sold-plays';
import { useTitles } from '../model/titles';
import { ProofLinks } from './proof-links';

/**
 * The seller's side of proof of play: their sold content's plays (records that lasted most of their page) and its
 * screen time on buyers' screens, per day and file.
 */
export function SoldPlays({ from, to }: { from: string; to: string }) {
  const { t } = useTranslation();
  const sold = useQuery(soldPlaysQuery(from, to));
  // the seller's own files: their titles are in the seller's own list
  const titles = useTitles();
  return (
    <section className="ps-subsection" aria-labelledby="sold-plays-title" data-testid="sold-plays">
      <h3 id="sold-plays-title">{t('screens.soldTitle')}</h3>
      <p className="pc-muted">{t('screens.soldHelp')}</p>
      {sold.error ? <p role="alert">{describeError(sold.error, t, t('screens.loadFailed'))}</p> : null}
      {sold.data && sold.data.length === 0 ? <p data-testid="sold-plays-empty">{t('screens.soldEmpty')}</p> : null}
      {sold.data?.length ? (
        <div className="ps-table-wrap ps-table-wrap--cards">
          <table className="pc-table ps-table pl-card-table">
            <thead>
              <tr>
                <th>{t('screens.day')}</th>
                <th>{t('screens.file')}</th>
                <th className="ps-num">{t('screens.playCount')}</th>
                <th className="ps-num">{t('screens.seconds')}</th>
              </tr>
            </thead>
            <tbody>
              {sold.data.map((r) => (
                <tr key={`${r.day}-${r.fileId}`}>
                  <td data-label={t('screens.day')}>{r.day}</td>
                  <td data-label={t('screens.file')} data-testid="sold-play-file">
                    {titles.file(r.fileId) ?? t('screens.board.unknownFile')}
                  </td>
                  <td data-label={t('screens.playCount')} data-testid="sold-play-count" className="ps-num">
                    {r.plays}
                  </td>
                  <td data-testid="sold-play-seconds" className="ps-num">
                    {Math.round(r.seconds)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {sold.data?.length ? (
        <ProofLinks
          fileIds={[...new Set(sold.data.map((r) => r.fileId))]}
          pathOf={(fileId) => soldPlayProofPath(fileId, from, to)}
          titleOf={(fileId) => titles.file(fileId) ?? t('screens.board.unknownFile')}
          help={t('screens.soldProofHelp')}
          testId="sold-play-proof"
        />
      ) : null}
    </section>
  );
}
