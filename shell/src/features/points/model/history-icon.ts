import type { PointsHistoryRow } from '@pagecast/contracts';

/** One symbol per ledger row type (spec point 2: icons by type); decorative, the row's text names the type. */
export const historyIcon: Record<PointsHistoryRow['type'], string> = {
  earn: '↗',
  spend: '↘',
  purchase: '＋',
};

/** '+1,000' / '-3,000' in the reader's number format. */
export function signedPoints(amount: number, language: string): string {
  const abs = Math.abs(amount).toLocaleString(language);
  if (amount > 0) return `+${abs}`;
  if (amount < 0) return `-${abs}`;
  return abs;
}
