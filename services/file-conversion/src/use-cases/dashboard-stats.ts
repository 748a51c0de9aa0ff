import type { DashboardStats } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { fileLimitFor, startOfMonth } from '../domain';
import { toFileSummary } from './present';

/** The dashboard: tier and points, files held against the tier's limit, this month's sums, the 5 newest files. */
export async function dashboardStats(ctx: ServiceContext, userId: string): Promise<DashboardStats> {
  const repo = ctx.data.files;
  const [owner, fileCount, recent, sums] = await Promise.all([
    ctx.data.owners.ensure(userId),
    repo.countByOwner(userId),
    repo.listByOwner(userId, 5),
    repo.monthlySums(userId, startOfMonth(ctx.clock.now())),
  ]);
  return {
    user: { membershipTier: owner.membershipTier, points: owner.points },
    fileCount,
    fileLimit: fileLimitFor(owner.membershipTier),
    monthlyEarnings: sums.earned,
    monthlySpent: sums.spent,
    recentFiles: recent.map(toFileSummary),
  };
}
