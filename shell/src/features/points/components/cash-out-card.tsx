import { constants } from '@pagecast/contracts';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';

/** Cash-out (spec points 2 and 9): shown with its terms, disabled (README: minimum 10,000 points, fee 220 yen). */
export function CashOutCard() {
  const { t, i18n } = useTranslation();
  const { minimumPoints, yenPerPoint, transferFeeYen } = constants.cashOut;
  const number = (n: number) => n.toLocaleString(i18n.language);
  return (
    <Card data-testid="points-cash-out">
      <CardHeader>
        <CardTitle>{t('points.cashOut.title')}</CardTitle>
        <CardDescription>{t('points.cashOut.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="pp-facts">
          <dt className="pc-muted">{t('points.cashOut.minimum')}</dt>
          <dd>{t('common.points', { count: minimumPoints, points: number(minimumPoints) })}</dd>
          <dt className="pc-muted">{t('points.cashOut.rate')}</dt>
          <dd>{t('points.cashOut.rateValue', { yen: number(yenPerPoint) })}</dd>
          <dt className="pc-muted">{t('points.cashOut.fee')}</dt>
          <dd>{t('points.cashOut.feeValue', { yen: number(transferFeeYen) })}</dd>
        </dl>
        <Button variant="outline" className="pp-wrap" disabled data-testid="points-cash-out-button">
          {t('points.cashOut.unavailable')}
        </Button>
      </CardContent>
    </Card>
  );
}
