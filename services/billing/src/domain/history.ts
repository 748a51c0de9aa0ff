import { type MembershipTier, membershipTiers, type PointsEntryReason } from '@pagecast/contracts';

/**
 * A ledger entry says why it moved points with a reason (a code and its parameters, `PointsEntryReason`); the front
 * ends word it in the reader's language. The history's `description` (the spec's field, read by the spec's client)
 * is the reason in Japanese, worded exactly as entries were stored before reasons existed.
 */

/** The plans' Japanese names as the old rows wrote them (a renewal of another plan wrote its id). */
const tierLabelsJa: Partial<Record<MembershipTier, string>> = { standard: 'スタンダード', creator: 'クリエイター' };
const tierLabelJa = (tier: MembershipTier) => tierLabelsJa[tier] ?? tier;

/** The reason in Japanese: the spec's `description`. */
export function describeJa(reason: PointsEntryReason): string {
  switch (reason.kind) {
    case 'registrationBonus':
      return '新規登録ボーナス';
    case 'migrationBonus':
      return 'アカウント移行ボーナス';
    case 'pointsPurchase':
      return `ポイント購入（${reason.points.toLocaleString('ja-JP')}ポイント）`;
    case 'upgrade':
      return `プランアップグレード（${tierLabelJa(reason.tier)}）`;
    case 'renewal':
      return `月額プラン（${tierLabelJa(reason.tier)}）${reason.month}`;
    case 'purchase':
      return reason.title ?? 'コンテンツ購入';
    case 'sale':
      return reason.title ? `販売: ${reason.title}` : 'コンテンツ販売';
    case 'platformFee':
      return '手数料';
  }
}

function tierFromLabel(label: string): MembershipTier | null {
  for (const [tier, text] of Object.entries(tierLabelsJa)) if (text === label) return tier as MembershipTier;
  return (membershipTiers as readonly string[]).includes(label) ? (label as MembershipTier) : null;
}

/**
 * The reason of an entry stored before reasons: its Japanese sentence read back (every form billing ever wrote), with
 * its key where the sentence alone cannot tell (a purchase's row held only the file's title). null for a text that
 * is none of them: the history shows it as stored.
 */
export function reasonFromStored(entry: {
  description?: string | null;
  key?: string | null;
}): PointsEntryReason | null {
  const text = entry.description ?? '';
  const key = entry.key ?? '';
  // A marketplace transfer's legs (use-cases/transfer-points.ts): the buyer's row held the title or a default.
  if (/^transfer:.+:buyer$/.test(key))
    return { kind: 'purchase', title: text && text !== 'コンテンツ購入' ? text : null };
  if (/^transfer:.+:seller$/.test(key)) {
    if (text.startsWith('販売: ')) return { kind: 'sale', title: text.slice('販売: '.length) };
    return { kind: 'sale', title: null };
  }
  if (text === '新規登録ボーナス') return { kind: 'registrationBonus' };
  if (text === 'アカウント移行ボーナス') return { kind: 'migrationBonus' };
  const purchase = /^ポイント購入（([\d,]+)ポイント）$/.exec(text);
  if (purchase?.[1]) {
    const points = Number(purchase[1].replace(/,/g, ''));
    if (Number.isSafeInteger(points) && points > 0) return { kind: 'pointsPurchase', points };
  }
  const upgrade = /^プランアップグレード（(.+)）$/.exec(text);
  const upgradeTier = upgrade?.[1] ? tierFromLabel(upgrade[1]) : null;
  if (upgradeTier) return { kind: 'upgrade', tier: upgradeTier };
  const renewal = /^月額プラン（(.+)）(\d{6})$/.exec(text);
  const renewalTier = renewal?.[1] ? tierFromLabel(renewal[1]) : null;
  if (renewal?.[2] && renewalTier) return { kind: 'renewal', tier: renewalTier, month: Number(renewal[2]) };
  if (text.startsWith('販売: ')) return { kind: 'sale', title: text.slice('販売: '.length) };
  if (text === 'コンテンツ販売') return { kind: 'sale', title: null };
  if (text === 'コンテンツ購入') return { kind: 'purchase', title: null };
  if (/^手数料 \S+$/.test(text) || text === '手数料') return { kind: 'platformFee' };
  return null;
}
