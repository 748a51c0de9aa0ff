import type { MembershipTier } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { announceMembership } from './membership-state';
import { postEntry } from './post-entry';

/**
 * A member registered (account.user.registered.v1): the plan's first version and the opening balance (300 points;
 * a legacy member's balance as account knew it), each once whatever the redeliveries (version 1 and the key
 * `opening:<id>` are unique). A replay of account's stream opens members who existed before billing.
 */
export async function openAccount(
  ctx: ServiceContext,
  e: { userId: string; membershipTier: MembershipTier; points: number; registeredAt: string },
): Promise<void> {
  const doc = await ctx.data.memberships.put(
    {
      memberId: e.userId,
      tier: e.membershipTier,
      registeredAt: new Date(e.registeredAt),
      pendingDowngradeTier: null,
      downgradeEffectiveMonth: null,
      paidMonth: null,
      renewalAnchor: null,
      notice: null,
    },
    1,
    'registered',
    ctx.clock.now(),
  );
  if (doc) await announceMembership(ctx, doc);
  if (e.points > 0) {
    await postEntry(ctx, {
      accountId: e.userId,
      amount: e.points,
      type: 'earn',
      reason: { kind: 'registrationBonus' },
      key: `opening:${e.userId}`,
    });
  }
}
