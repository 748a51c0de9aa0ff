import type { RefusedPlays, RefusedPlaysQuery } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { daysBetween } from '../domain';

const MAX_DAYS = 366;

/**
 * The owner's records that did not count, per day, screen and reason (revoked screens included). Only the screen's
 * owner reads them: a seller's counts never include a refused record, nor say that one was refused.
 */
export async function refusedPlays(
  ctx: ServiceContext,
  ownerId: string,
  query: RefusedPlaysQuery,
): Promise<RefusedPlays> {
  if (query.from > query.to || Date.parse(query.to) - Date.parse(query.from) > MAX_DAYS * 86_400_000) {
    throw new AppError('VALIDATION', {
      issues: [{ path: 'to', message: 'range of 0 to 366 days', key: 'validation.invalid' }],
    });
  }
  const rows = await ctx.data.rollups.refusedCounts(ownerId, daysBetween(query.from, query.to), query.screenId);
  const names = new Map<string, string>();
  for (const id of new Set(rows.map((r) => r.screenId))) {
    const screen = await ctx.data.screens.get(id);
    names.set(id, screen && screen.ownerId === ownerId ? screen.name : '');
  }
  return rows.map((r) => ({ ...r, screenName: names.get(r.screenId) ?? '' }));
}
