import type { ScreenList } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { presentScreen } from './present-screen';

export async function listScreens(ctx: ServiceContext, ownerId: string): Promise<ScreenList> {
  const now = ctx.now();
  const [screens, statuses] = await Promise.all([
    ctx.data.screens.listActive(ownerId),
    ctx.data.statuses.forOwner(ownerId),
  ]);
  return screens.map((s) => presentScreen(s, statuses.get(s._id), now));
}
