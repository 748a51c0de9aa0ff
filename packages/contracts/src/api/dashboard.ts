import { z } from 'zod';
import { defineRoutes } from '../route-def';
import { MembershipTier } from '../validation';
import { FileSummary } from './files';

export const DashboardStats = z.object({
  user: z.object({ membershipTier: MembershipTier, points: z.number().int() }),
  fileCount: z.number().int().nonnegative(),
  /** the tier's file limit (spec point 6) */
  fileLimit: z.number().int().positive(),
  /** since the 1st of the current month (Asia/Tokyo): sale proceeds received as seller (no bonus), and points spent */
  monthlyEarnings: z.number().int().nonnegative(),
  monthlySpent: z.number().int().nonnegative(),
  recentFiles: z.array(FileSummary),
});
export type DashboardStats = z.infer<typeof DashboardStats>;

export const dashboardRoutes = defineRoutes([
  {
    id: 'getDashboardStats',
    method: 'get',
    path: '/api/dashboard/stats',
    service: 'file-conversion',
    auth: 'session',
    action: 'files.read',
    summary: 'Tier, points, file count and limit, monthly earnings and spending, recent files',
    response: DashboardStats,
  },
]);
