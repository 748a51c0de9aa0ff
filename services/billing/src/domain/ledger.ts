import type { PointTransactionType } from '@pagecast/contracts';

/** What a new entry needs from the account's last one. */
export interface LedgerHead {
  seq: number;
  balance: number;
  createdAt: Date;
}

/**
 * The next entry after `head` (null = the account's first): sequence n+1 and the running balance, or null when it
 * would take the balance below zero. Its time is strictly after the previous entry's, so readers that keep the
 * newest balance by time (other services' read models) can never prefer an older one.
 */
export function nextEntry(
  head: LedgerHead | null,
  amount: number,
  now: Date,
): { seq: number; balance: number; createdAt: Date } | null {
  const balance = (head?.balance ?? 0) + amount;
  if (balance < 0) return null;
  const after = head ? head.createdAt.getTime() + 1 : 0;
  return { seq: (head?.seq ?? 0) + 1, balance, createdAt: new Date(Math.max(now.getTime(), after)) };
}

/** A sale's proceeds: the seller's leg of a marketplace transfer (key `transfer:<id>:seller`, use-cases/transfer-points). */
export function isSaleProceeds(entry: { key?: string | null }): boolean {
  return typeof entry.key === 'string' && entry.key.startsWith('transfer:') && entry.key.endsWith(':seller');
}

/**
 * The monthly sums. The Points screen's (spec point 2): earn adds (every earn row: bonuses too), spend adds the
 * absolute value, purchase adds. `sold`: the dashboard's earnings from sales, sale proceeds only (no bonus).
 */
export function monthlySums(rows: ReadonlyArray<{ type: PointTransactionType; amount: number; key?: string | null }>) {
  let earned = 0;
  let sold = 0;
  let spent = 0;
  let purchased = 0;
  for (const row of rows) {
    if (row.type === 'earn') earned += row.amount;
    else if (row.type === 'spend') spent += Math.abs(row.amount);
    else if (row.type === 'purchase') purchased += row.amount;
    if (row.type === 'earn' && isSaleProceeds(row)) sold += row.amount;
  }
  return { earned, sold, spent, purchased };
}
