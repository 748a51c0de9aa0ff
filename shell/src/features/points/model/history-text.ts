import type { PointsHistoryRow } from '@pagecast/contracts';
import type { TFunction } from 'i18next';

/** 202612 → 'December 2026' / '2026年12月' in the reader's language. */
export function monthLabel(month: number, language: string): string {
  const at = Date.UTC(Math.floor(month / 100), (month % 100) - 1, 1);
  return new Intl.DateTimeFormat(language, { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(at);
}

/**
 * What a history row says, in the reader's language, from billing's reason (a code and its parameters). A row
 * without one (an old entry whose stored text billing does not know) shows that text as stored.
 */
export function historyText(row: Pick<PointsHistoryRow, 'reason' | 'description'>, t: TFunction, language: string) {
  const reason = row.reason;
  if (!reason) return row.description;
  const tier = (value: string) => t(`common.tiers.${value}`, { defaultValue: value });
  switch (reason.kind) {
    case 'registrationBonus':
      return t('points.history.reasons.registrationBonus');
    case 'migrationBonus':
      return t('points.history.reasons.migrationBonus');
    case 'pointsPurchase':
      return t('points.history.reasons.pointsPurchase', {
        count: reason.points,
        points: reason.points.toLocaleString(language),
      });
    case 'upgrade':
      return t('points.history.reasons.upgrade', { tier: tier(reason.tier) });
    case 'renewal':
      return t('points.history.reasons.renewal', {
        tier: tier(reason.tier),
        month: monthLabel(reason.month, language),
      });
    case 'purchase':
      return reason.title
        ? t('points.history.reasons.purchase', { title: reason.title })
        : t('points.history.reasons.purchaseUntitled');
    case 'sale':
      return reason.title
        ? t('points.history.reasons.sale', { title: reason.title })
        : t('points.history.reasons.saleUntitled');
    case 'platformFee':
      return t('points.history.reasons.platformFee');
  }
}
