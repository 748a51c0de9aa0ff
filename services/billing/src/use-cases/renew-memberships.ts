import type { ServiceContext } from '../context';
import { renewalFailed, renewalPlan, trialExpired } from '../domain/membership';
import { monthKey } from '../domain/months';
import { currentMembership, putMembership, renewalKey, withMemberLock } from './membership-state';
import { postEntry } from './post-entry';

const planLabels: Record<string, string> = {
  standard: 'スタンダード',
  creator: 'クリエイター',
  '3000point': '3000point',
};

/**
 * One member's monthly job for month `month` (YYYYMM, Tokyo): a trial past its 30 days becomes free; a pending
 * downgrade due this month is applied; a paid plan is charged (key `renewal:<id>:<month>`: once per member and
 * month) or, when the points are short, becomes free with the renewal-failed notice. Idempotent: run again (a
 * second instance, a restart after a crash between the charge and the plan), it finds the charge and finishes.
 */
export async function renewMember(ctx: ServiceContext, memberId: string, month: number): Promise<void> {
  await withMemberLock(ctx, memberId, async () => {
    const now = ctx.clock.now();
    let cur = await currentMembership(ctx, memberId);
    if (!cur) return;
    const ended = trialExpired(cur, now);
    if (ended) {
      await putMembership(ctx, cur, ended, 'trial ended');
      cur = await currentMembership(ctx, memberId);
      if (!cur) return;
    }
    const plan = renewalPlan(cur, month);
    if (!plan) return;
    if (plan.charge === 0) {
      await putMembership(ctx, cur, plan.plan, `renewal ${month}`);
      return;
    }
    const charge = await postEntry(ctx, {
      accountId: memberId,
      amount: -plan.charge,
      type: 'spend',
      description: `月額プラン（${planLabels[plan.plan.tier] ?? plan.plan.tier}）${month}`,
      key: renewalKey(memberId, month),
      meta: { kind: 'renewal', month },
    });
    ctx.crashAt('renewal-after-charge');
    const next = charge.status === 'applied' ? plan.plan : renewalFailed(plan.plan);
    await putMembership(ctx, cur, next, charge.status === 'applied' ? `renewal ${month}` : `renewal ${month} failed`);
  });
}

/** All members' monthly jobs for the current Tokyo month (each member independently; one failure does not stop the rest). */
export async function renewMemberships(ctx: ServiceContext): Promise<{ members: number; failed: number }> {
  const now = ctx.clock.now();
  const month = monthKey(now);
  // Checked in memory first: the job runs every minute, and almost every member has nothing due. Taking each
  // member's lock to find that out cost three database operations per member per minute.
  const due = (await ctx.data.memberships.newestOfAll())
    .filter((m) => trialExpired(m, now) !== null || renewalPlan(m, month) !== null)
    .map((m) => m.memberId);
  let failed = 0;
  for (const id of due) {
    try {
      await renewMember(ctx, id, month);
    } catch (err) {
      failed++;
      ctx.logger.warn({ err, memberId: id }, 'monthly job failed for a member; the next run retries');
    }
  }
  return { members: due.length, failed };
}
