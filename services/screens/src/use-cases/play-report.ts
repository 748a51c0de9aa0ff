import type { PlayReport, PlayReportQuery } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { daysBetween, toCsv } from '../domain';

const MAX_DAYS = 366;

/** Plays per day, screen and file of the owner's screens (revoked ones included: their plays happened). */
export async function playReport(ctx: ServiceContext, ownerId: string, query: PlayReportQuery): Promise<PlayReport> {
  if (query.from > query.to || Date.parse(query.to) - Date.parse(query.from) > MAX_DAYS * 86_400_000) {
    throw new AppError('VALIDATION', {
      issues: [{ path: 'to', message: 'range of 0 to 366 days', key: 'validation.invalid' }],
    });
  }
  const rows = await ctx.data.rollups.ownerCounts(ownerId, daysBetween(query.from, query.to), query.screenId);
  const names = new Map<string, string>();
  for (const id of new Set(rows.map((r) => r.screenId))) {
    const screen = await ctx.data.screens.get(id);
    names.set(id, screen && screen.ownerId === ownerId ? screen.name : '');
  }
  return rows.map((r) => ({ ...r, screenName: names.get(r.screenId) ?? '' }));
}

export function playReportCsv(report: PlayReport): string {
  return toCsv(
    ['day', 'screen_id', 'screen_name', 'file_id', 'plays', 'seconds'],
    report.map((r) => [r.day, r.screenId, r.screenName, r.fileId, r.plays, Math.round(r.seconds)]),
  );
}
