import type { Screen, UpdateScreenRequest } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { assignedContent, scheduleProblems } from '../domain';
import { ownedScreen } from './owned-screen';
import { presentScreen } from './present-screen';

/** Renames a screen, changes its zone or what it plays; the display follows through screens.screen.changed.v1. */
export async function updateScreen(
  ctx: ServiceContext,
  ownerId: string,
  screenId: string,
  input: UpdateScreenRequest,
): Promise<Screen> {
  const screen = await ownedScreen(ctx, ownerId, screenId);
  if (input.assignment?.kind === 'schedule') {
    const problems = scheduleProblems(input.assignment.schedule);
    if (problems.length > 0) {
      throw new AppError('SCHEDULE_INVALID', {
        issues: problems.map((p) => ({
          path: `assignment.schedule.parts.${p.part}`,
          message: p.reason === 'empty' ? 'empty range' : `overlaps part ${p.other}`,
          key: p.reason === 'empty' ? 'screens.schedule.empty' : 'screens.schedule.overlap',
        })),
      });
    }
  }
  const fields = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
    ...(input.assignment !== undefined ? { assignment: input.assignment } : {}),
  };
  await ctx.data.screens.set(screenId, fields);
  await ctx.outbox.add('screens.screen.changed.v1', {
    screenId,
    ownerId,
    changedAt: new Date(ctx.now()).toISOString(),
    ...assignedContent(fields.assignment ?? screen.assignment),
  });
  return presentScreen({ ...screen, ...fields }, await ctx.data.statuses.get(screenId), ctx.now());
}
