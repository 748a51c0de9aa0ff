import type { SoldPlays, SoldPlaysQuery } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { daysBetween } from '../domain';

const MAX_DAYS = 366;

/** A sale seen by marketplace's event: from then on the file's plays on other members' screens count for its seller. */
export async function recordSale(ctx: ServiceContext, sale: { fileId: string; sellerId: string; at: Date }) {
  await ctx.data.soldFiles.record(sale.fileId, sale.sellerId, sale.at);
}

/**
 * Plays and seconds per day of the files the member sold, on buyers' screens (their own screens are in their own
 * report): a play is a record that lasted most of its page (domain countsAsPlay), seconds the screen time credited.
 */
export async function soldPlays(ctx: ServiceContext, sellerId: string, query: SoldPlaysQuery): Promise<SoldPlays> {
  if (query.from > query.to || Date.parse(query.to) - Date.parse(query.from) > MAX_DAYS * 86_400_000) {
    throw new AppError('VALIDATION', {
      issues: [{ path: 'to', message: 'range of 0 to 366 days', key: 'validation.invalid' }],
    });
  }
  const files = await ctx.data.soldFiles.filesOf(sellerId);
  return ctx.data.rollups.soldCounts(sellerId, files, daysBetween(query.from, query.to));
}
