import type { PointsHistory } from '@pagecast/contracts';
import { Card, CardContent, CardHeader, CardTitle } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
import { historyIcon, signedPoints } from '../model/history-icon';
import { historyText } from '../model/history-text';

/**
 * History (spec point 2): description, date-time and signed amount per row, an icon by type, an empty state. The
 * description is worded here, in the reader's language, from billing's reason code.
 */
export function HistoryCard({ rows }: { rows: PointsHistory }) {
  const { t, i18n } = useTranslation();
  return (
    <Card data-testid="points-history">
      <CardHeader>
        <CardTitle>{t('points.history.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="pc-muted" data-testid="points-history-empty">
            {t('points.history.empty')}
          </p>
        ) : (
          <ul className="pp-history">
            {rows.map((row) => (
              <li key={row.id} data-testid="points-history-row" data-type={row.type} data-reason={row.reason?.kind}>
                <span className={`pp-history__icon pp-history__icon--${row.type}`} aria-hidden="true">
                  {historyIcon[row.type]}
                </span>
                <div className="pp-history__text">
                  <div className="pp-history__description" data-testid="points-history-description">
                    {historyText(row, t, i18n.language)}
                  </div>
                  <div className="pc-muted">
                    <span className="pc-visually-hidden">{t(`points.history.types.${row.type}`)} · </span>
                    <time dateTime={row.createdAt}>{new Date(row.createdAt).toLocaleString(i18n.language)}</time>
                  </div>
                </div>
                <span
                  className={`pp-history__amount pp-history__amount--${row.amount < 0 ? 'minus' : 'plus'}`}
                  data-testid="points-history-amount"
                >
                  {signedPoints(row.amount, i18n.language)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
