import { INCIDENTS_LIST_MAX, type ScreenIncident } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { toIncident } from '../data/incidents';
import { ownedScreen } from './owned-screen';

/** The owner's screen's incident log, newest first (another member's screen: SCREEN_NOT_FOUND). */
export async function screenIncidents(
  ctx: ServiceContext,
  ownerId: string,
  screenId: string,
): Promise<ScreenIncident[]> {
  await ownedScreen(ctx, ownerId, screenId);
  return (await ctx.data.incidents.ofScreen(screenId, INCIDENTS_LIST_MAX)).map(toIncident);
}
