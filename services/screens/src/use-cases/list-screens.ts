import type { ScreenList } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { presentScreen } from './present-screen';

export async function listScreens(ctx: ServiceContext, ownerId: string): Promise<ScreenList> {
  const now = ctx.clock.ms();
  const screens = await ctx.data.screens.listActive(ownerId);
  const statuses = await ctx.data.statuses.forScreens(
    ownerId,
    screens.map((s) => s._id),
  );
  return screens.map((s) => presentScreen(s, statuses.get(s._id), now));
}
