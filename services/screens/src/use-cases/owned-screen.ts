import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { ScreenRecord } from '../data';

/** The owner's paired screen, or SCREEN_NOT_FOUND (someone else's screen is not found either). */
export async function ownedScreen(ctx: ServiceContext, ownerId: string, screenId: string): Promise<ScreenRecord> {
  const screen = await ctx.data.screens.get(screenId);
  if (!screen || screen.ownerId !== ownerId || screen.revokedAt) throw new AppError('SCREEN_NOT_FOUND');
  return screen;
}
