/**
 * GET /api/dashboard/stats: the shell's dashboard reads it (its queryOptions live with the dashboard); the other
 * front ends refresh it after a change that moves its figures (files, purchases, points), under this one key.
 */
export const dashboardStatsQueryKey = ['/api/dashboard/stats'] as const;
