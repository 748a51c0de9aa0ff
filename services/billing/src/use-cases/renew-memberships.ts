import type { ServiceContext } from '../context';
import { renewalDueAt, renewalFailed, renewalPlan, trialExpired } from '../domain/membership';
import {
  billingJob,
  currentMembership,
  planChange,
  putMembership,
  renewalKey,
  withMemberLock,
} from './membership-state';
import { postEntry } from './post-entry';

/**
 * One member's job at `now`: a trial past its 30 days becomes free; when the member's renewal is due (their own day
 * of the month, see domain/membership.ts), a pending downgrade due then is applied and a paid plan is charged (key
 * `renewal:<id>:<YYYYMM of the due date>`: once per member and period, as a member renews once a month) or, when the
 * points are short, becomes free with the renewal-failed notice. Idempotent: run again (a second instance, a restart
 * after a crash between the charge and the plan), it finds the charge and finishes.
 */
export async function renewMember(ctx: ServiceContext, memberId: string): Promise<void> {
  await withMemberLock(ctx, memberId, async () => {
    const now = ctx.clock.now();
    let cur = await currentMembership(ctx, memberId);
    if (!cur) return;
    const ended = trialExpired(cur, now);
    if (ended) {
      await putMembership(ctx, cur, ended, 'trial ended', planChange(cur, ended, billingJob('plan.trial-ended')));
      cur = await currentMembership(ctx, memberId);
      if (!cur) return;
    }
    const plan = renewalPlan(cur, now);
    if (!plan) return;
    const { month } = plan;
    // a renewal that applies a pending downgrade changes the plan (an entry by the job); one on the same plan does not
    const renewed = planChange(cur, plan.plan, billingJob('plan.downgraded'));
    if (plan.charge === 0) {
      await putMembership(ctx, cur, plan.plan, `renewal ${month}`, renewed);
      return;
    }
    const charge = await postEntry(ctx, {
      accountId: memberId,
      amount: -plan.charge,
      type: 'spend',
      reason: { kind: 'renewal', tier: plan.plan.tier, month },
      key: renewalKey(memberId, month),
      meta: { kind: 'renewal', month, dueAt: renewalDueAt(cur, month).toISOString() },
    });
    ctx.failpoints.hit('billing.renewal-after-charge');
    const next = charge.status === 'applied' ? plan.plan : renewalFailed(plan.plan);
    await putMembership(
      ctx,
      cur,
      next,
      charge.status === 'applied' ? `renewal ${month}` : `renewal ${month} failed`,
      charge.status === 'applied' ? renewed : planChange(cur, next, billingJob('plan.renewal-failed')),
    );
  });
}

/** Every member's job that is due now (each member independently; one failure does not stop the rest). */
export async function renewMemberships(ctx: ServiceContext): Promise<{ members: number; failed: number }> {
  const now = ctx.clock.now();
  // Checked in memory first: the job runs every minute, and almost every member has nothing due. Taking each
  // member's lock to find that out cost three database operations per member per minute.
  const due = (await ctx.data.memberships.newestOfAll())
    .filter((m) => trialExpired(m, now) !== null || renewalPlan(m, now) !== null)
    .map((m) => m.memberId);
  let failed = 0;
  for (const id of due) {
    try {
      await renewMember(ctx, id);
    } catch (err) {
      failed++;
      ctx.logger.warn({ err, memberId: id }, 'renewal job failed for a member; the next run retries');
    }
  }
  return { members: due.length, failed };
}
