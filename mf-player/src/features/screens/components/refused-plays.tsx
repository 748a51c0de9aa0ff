import { describeError } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@pagecast/i18n';
import { refusedPlaysQuery } from '../api/get-refused-plays';

/** The owner's side of proof of play: records their screens sent that did not count, and why (never a seller's). */
export function RefusedPlays({ from, to }: { from: string; to: string }) {
  const { t } = useTranslation();
  const refused = useQuery(refusedPlaysQuery(from, to));
  const total = (refused.data ?? []).reduce((n, r) => n + r.records, 0);
  return (
    <section className="ps-subsection" aria-labelledby="refused-plays-title" data-testid="refused-plays">
      <h3 id="refused-plays-title">{t('screens.refusedTitle')}</h3>
      <p className="pc-muted">{t('screens.refusedHelp')}</p>
      {refused.error ? <p role="alert">{describeError(refused.error, t, t('screens.loadFailed'))}</p> : null}
      {refused.data && refused.data.length === 0 ? (
        <p data-testid="refused-plays-empty">{t('screens.refusedNone')}</p>
      ) : null}
      {refused.data?.length ? (
        <>
          <p data-testid="refused-total">{t('screens.refusedTotal', { count: total })}</p>
          <div className="ps-table-wrap ps-table-wrap--cards">
            <table className="pc-table ps-table pl-card-table">
              <thead>
                <tr>
                  <th>{t('screens.day')}</th>
                  <th>{t('screens.screen')}</th>
                  <th>{t('screens.reason')}</th>
                  <th className="ps-num">{t('screens.records')}</th>
                </tr>
              </thead>
              <tbody>
                {refused.data.map((r) => (
                  <tr key={`${r.day}-${r.screenId}-${r.reason}`} data-reason={r.reason}>
                    <td data-label={t('screens.day')}>{r.day}</td>
                    <td data-label={t('screens.screen')}>{r.screenName}</td>
                    <td data-label={t('screens.reason')}>{t(`screens.refusal.${r.reason}`)}</td>
                    <td data-label={t('screens.records')} data-testid="refused-count" className="ps-num">
                      {r.records}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </section>
  );
}
