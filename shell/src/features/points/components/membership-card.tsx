import type { MembershipStatus } from '@pagecast/contracts';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Dialog,
  describeError,
  HttpError,
  toast,
  useSessionExpired,
} from '@pagecast/ui';
import { useCallback, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { useCancelDowngrade } from '../api/cancel-downgrade';
import { useScheduleDowngrade } from '../api/schedule-downgrade';
import { useUpgradeMembership } from '../api/upgrade-membership';
import {
  type DowngradeTarget,
  downgradeOptions,
  monthToDate,
  type UpgradeTarget,
  upgradeOptions,
} from '../model/membership-options';

type Pending =
  | {
      kind: 'upgrade';
      tier: UpgradeTarget;
      cost: number;
      renewsAt: string;
      renewalPoints: number;
      /** billing answered PRICE_CHANGED: the dialog asks again with the current cost */
      priceChanged?: boolean;
    }
  | { kind: 'downgrade'; tier: DowngradeTarget };

/** The current price of a PRICE_CHANGED answer (details.price), or undefined for any other error. */
function changedPrice(error: unknown): number | undefined {
  if (!(error instanceof HttpError) || error.code !== 'PRICE_CHANGED') return undefined;
  const price = (error.data?.details as { price?: unknown } | undefined)?.price;
  return typeof price === 'number' && Number.isInteger(price) && price > 0 ? price : undefined;
}

/**
 * Membership (spec point 4): the plan and its next renewal, upgrades paid with points at once (disabled below their
 * cost; the confirmation says what is charged now and when and how much next), downgrades reserved for the next
 * renewal, and while one is reserved 'ダウングレード予約中' with only a cancel button.
 */
export function MembershipCard({
  status,
  onBuyPoints,
}: {
  status: MembershipStatus;
  /** opens the purchase dialog (absent when card payments are unavailable) */
  onBuyPoints?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [confirming, setConfirming] = useState<Pending | null>(null);
  const { upgrade, downgrade, cancel, busy, apply, cancelReservation } = useMembershipChanges(setConfirming);
  const confirm = () => {
    const action = confirming;
    setConfirming(null);
    if (action) apply(action);
  };
  const closeConfirm = useCallback((open: boolean) => {
    if (!open) setConfirming(null);
  }, []);
  const tierName = (tier: string) => t(`common.tiers.${tier}`);
  const amount = (n: number) => t('points.membership.amount', { count: n, points: n.toLocaleString(i18n.language) });
  const date = (iso: string | Date) => new Date(iso).toLocaleDateString(i18n.language);
  // billing's calendar is Tokyo's: a renewal at 00:00 JST on the 1st reads as the 1st everywhere
  const tokyoDate = (iso: string) => new Date(iso).toLocaleDateString(i18n.language, { timeZone: 'Asia/Tokyo' });

  const pendingTier = status.pendingDowngradeTier;
  // a pending downgrade takes effect at the next renewal (billing's date); without one, the effective month's 1st
  const effectiveMonth = monthToDate(status.downgradeEffectiveMonth);
  const effective = status.renewsAt ? tokyoDate(status.renewsAt) : effectiveMonth ? date(effectiveMonth) : null;
  const upgrades = upgradeOptions(status.upgradeOffers, status.points);
  const downgrades = downgradeOptions(status.membershipTier);

  return (
    <Card data-testid="points-membership">
      <CardHeader>
        <CardTitle>{t('points.membership.title')}</CardTitle>
        <CardDescription>{t('points.membership.current')}</CardDescription>
        <p className="pp-figure" data-testid="points-membership-tier" data-tier={status.membershipTier}>
          {tierName(status.membershipTier)}
        </p>
      </CardHeader>
      <CardContent className="pc-stack">
        <p className="pc-muted" style={{ margin: 0 }} data-testid="points-membership-renewal">
          {status.membershipTier === 'trial' && status.trialEndsAt
            ? t('points.membership.trialEnds', { date: tokyoDate(status.trialEndsAt) })
            : status.renewsAt && status.renewalPoints
              ? t('points.membership.nextRenewal', {
                  date: tokyoDate(status.renewsAt),
                  amount: amount(status.renewalPoints),
                })
              : status.renewsAt
                ? t('points.membership.renewalEnds', { date: tokyoDate(status.renewsAt) })
                : t('points.membership.noRenewal')}
        </p>

        {pendingTier ? (
          <div className="pc-stack" data-testid="points-downgrade-pending">
            <div>
              <Badge variant="warning">{t('points.membership.downgradePending')}</Badge>
            </div>
            <p style={{ margin: 0 }}>
              {effective
                ? t('points.membership.downgradeNextMonthOn', { tier: tierName(pendingTier), date: effective })
                : t('points.membership.downgradeNextMonth', { tier: tierName(pendingTier) })}
            </p>
            <div className="pp-buttons">
              <Button
                variant="outline"
                onClick={cancelReservation}
                loading={cancel.isPending}
                disabled={busy}
                data-testid="points-cancel-downgrade"
              >
                {t('points.membership.cancelDowngrade')}
              </Button>
            </div>
          </div>
        ) : (
          <PlanChoices
            upgrades={upgrades}
            downgrades={downgrades}
            busy={busy}
            upgrading={upgrade.isPending ? upgrade.variables?.membershipTier : undefined}
            downgrading={downgrade.isPending ? downgrade.variables?.targetTier : undefined}
            onChoose={setConfirming}
            onBuyPoints={onBuyPoints}
          />
        )}
      </CardContent>

      <Dialog
        open={confirming !== null}
        onOpenChange={closeConfirm}
        size="sm"
        title={
          confirming?.kind === 'upgrade'
            ? t('points.membership.confirmUpgradeTitle')
            : t('points.membership.confirmDowngradeTitle')
        }
        description={confirming ? <ConfirmText confirming={confirming} renewsAt={status.renewsAt} /> : undefined}
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirming(null)}>
              {t('common.cancel')}
            </Button>
            <Button onClick={confirm} data-testid="points-membership-confirm">
              {confirming?.kind === 'upgrade'
                ? t('points.membership.confirmUpgradeButton')
                : t('points.membership.confirmDowngradeButton')}
            </Button>
          </>
        }
      />
    </Card>
  );
}

/** The plans the member may move to now: upgrades (paid now), the hint to buy points when short, downgrades. */
function PlanChoices({
  upgrades,
  downgrades,
  busy,
  upgrading,
  downgrading,
  onChoose,
  onBuyPoints,
}: {
  upgrades: ReturnType<typeof upgradeOptions>;
  downgrades: ReturnType<typeof downgradeOptions>;
  busy: boolean;
  upgrading: string | undefined;
  downgrading: string | undefined;
  onChoose: (choice: Pending) => void;
  onBuyPoints?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const tierName = (tier: string) => t(`common.tiers.${tier}`);
  const number = (n: number) => n.toLocaleString(i18n.language);
  return (
    <>
      {upgrades.length > 0 ? (
        <div className="pp-buttons">
          {upgrades.map((option) => (
            <Button
              key={option.tier}
              onClick={() =>
                onChoose({
                  kind: 'upgrade',
                  tier: option.tier,
                  cost: option.cost,
                  renewsAt: option.renewsAt,
                  renewalPoints: option.renewalPoints,
                })
              }
              disabled={busy || !option.affordable}
              loading={upgrading === option.tier}
              data-testid={`points-upgrade-${option.tier}`}
            >
              {t('points.membership.upgradeTo', { tier: tierName(option.tier), points: number(option.cost) })}
            </Button>
          ))}
        </div>
      ) : null}
      {upgrades.some((o) => !o.affordable) ? (
        <div className="pc-stack" data-testid="points-membership-short">
          <p className="pc-muted" style={{ margin: 0 }}>
            {t('points.membership.notEnoughPoints')}
          </p>
          {onBuyPoints ? (
            <div className="pp-buttons">
              <Button variant="outline" onClick={onBuyPoints} data-testid="points-membership-buy-points">
                {t('points.buy')}
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
      {downgrades.length > 0 ? (
        <div className="pp-buttons">
          {downgrades.map((tier) => (
            <Button
              key={tier}
              variant="outline"
              onClick={() => onChoose({ kind: 'downgrade', tier })}
              disabled={busy}
              loading={downgrading === tier}
              data-testid={`points-downgrade-${tier}`}
            >
              {t('points.membership.downgradeTo', { tier: tierName(tier) })}
            </Button>
          ))}
        </div>
      ) : null}
    </>
  );
}

/** What the confirmation asks: the plan, what is paid now and at each renewal, or from when a downgrade applies. */
function ConfirmText({ confirming, renewsAt }: { confirming: Pending; renewsAt: string | null | undefined }) {
  const { t, i18n } = useTranslation();
  const tierName = (tier: string) => t(`common.tiers.${tier}`);
  const amount = (n: number) => t('points.membership.amount', { count: n, points: n.toLocaleString(i18n.language) });
  const tokyoDate = (iso: string) => new Date(iso).toLocaleDateString(i18n.language, { timeZone: 'Asia/Tokyo' });
  return (
    <>
      {confirming.kind === 'upgrade' ? (
        <>
          {confirming.priceChanged ? (
            <strong data-testid="points-membership-price-changed">{t('errors.PRICE_CHANGED')} </strong>
          ) : null}
          {t('points.membership.confirmUpgrade', {
            tier: tierName(confirming.tier),
            now: amount(confirming.cost),
            date: tokyoDate(confirming.renewsAt),
            next: amount(confirming.renewalPoints),
          })}
        </>
      ) : renewsAt ? (
        t('points.membership.confirmDowngradeOn', {
          tier: tierName(confirming.tier),
          date: tokyoDate(renewsAt),
        })
      ) : (
        t('points.membership.confirmDowngrade', { tier: tierName(confirming.tier) })
      )}
    </>
  );
}

/** Upgrading, reserving a downgrade and cancelling it, each with its toasts; a changed price asks again. */
function useMembershipChanges(setConfirming: (pending: Pending | null) => void) {
  const { t, i18n } = useTranslation();
  const sessionExpired = useSessionExpired();
  const upgrade = useUpgradeMembership();
  const downgrade = useScheduleDowngrade();
  const cancel = useCancelDowngrade();

  const tierName = (tier: string) => t(`common.tiers.${tier}`);
  // plural-aware: '1 point', '3,000 points'
  const amount = (n: number) => t('points.membership.amount', { count: n, points: n.toLocaleString(i18n.language) });
  const date = (iso: string | Date) => new Date(iso).toLocaleDateString(i18n.language);
  // billing's calendar is Tokyo's: a renewal at 00:00 JST on the 1st reads as the 1st everywhere
  const tokyoDate = (iso: string) => new Date(iso).toLocaleDateString(i18n.language, { timeZone: 'Asia/Tokyo' });
  const busy = upgrade.isPending || downgrade.isPending || cancel.isPending;
  const fail = (title: string, fallback: string) => (error: unknown) => {
    if (sessionExpired(error)) return;
    toast({ title, description: describeError(error, t, fallback), variant: 'destructive' });
  };

  const apply = (action: Pending) => {
    if (action.kind === 'upgrade') {
      upgrade.mutate(
        { membershipTier: action.tier, expectedCost: action.cost },
        {
          onSuccess: (result) =>
            toast({
              title: t('points.membership.upgraded'),
              description: t('points.membership.upgradedDescription', {
                tier: tierName(result.user.membershipTier),
                now: amount(result.pointsConsumed),
                date: tokyoDate(result.user.renewsAt ?? action.renewsAt),
                next: amount(result.user.renewalPoints ?? action.renewalPoints),
              }),
            }),
          onError: (error) => {
            const price = changedPrice(error);
            // the cost changed since it was shown: show the current one and ask again (nothing was charged)
            if (price !== undefined) setConfirming({ ...action, cost: price, priceChanged: true });
            else fail(t('points.membership.upgradeFailedTitle'), t('points.membership.upgradeFailed'))(error);
          },
        },
      );
    } else {
      downgrade.mutate(
        { targetTier: action.tier },
        {
          onSuccess: (result) =>
            toast({
              title: t('points.membership.downgradeScheduled'),
              description: t('points.membership.downgradeScheduledDescription', {
                tier: tierName(result.scheduledTier),
                date: date(`${result.effectiveDate}T00:00:00`),
              }),
            }),
          onError: fail(t('points.membership.downgradeFailedTitle'), t('points.membership.downgradeFailed')),
        },
      );
    }
  };

  const cancelReservation = () =>
    cancel.mutate(undefined, {
      onSuccess: () => toast({ title: t('points.membership.downgradeCancelled') }),
      onError: fail(t('points.membership.cancelFailedTitle'), t('points.membership.cancelFailed')),
    });
  return { upgrade, downgrade, cancel, busy, apply, cancelReservation };
}
