import type { ScreenList } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { presentScreen } from './present-screen';

export async function listScreens(ctx: ServiceContext, ownerId: string): Promise<ScreenList> {
  const now = ctx.now();
  return (await ctx.data.screens.listActive(ownerId)).map((s) => presentScreen(s, now));
}
