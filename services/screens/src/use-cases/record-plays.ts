import type { DeviceIdentity, PlayBatchRequest, PlayBatchResponse } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { localDay, playBatchProblems } from '../domain';
import { DEVICE_CHECK_MS, screenOfDevice } from './device-screen';

/**
 * Proof of play. A batch with a future-dated, too old or repeated record is refused whole and stores nothing;
 * otherwise each record is inserted under its device-made id, so a batch sent again (the answer was lost, the
 * display was offline) counts each record once.
 */
export async function recordPlays(
  ctx: ServiceContext,
  device: DeviceIdentity,
  input: PlayBatchRequest,
): Promise<PlayBatchResponse> {
  const screen = await screenOfDevice(ctx, device, { recentMs: DEVICE_CHECK_MS });
  const now = ctx.now();
  const problems = playBatchProblems(input.plays, now);
  if (problems.length > 0) {
    throw new AppError('PLAY_BATCH_INVALID', {
      issues: problems.map((p) => ({ path: `plays.${p.index}`, message: p.reason, key: `screens.plays.${p.reason}` })),
    });
  }
  return ctx.data.plays.insertOnce(
    input.plays.map((p) => ({
      _id: p.id,
      screenId: screen._id,
      ownerId: screen.ownerId,
      fileId: p.fileId,
      page: p.page,
      startedAt: new Date(p.startedAt),
      day: localDay(Date.parse(p.startedAt), screen.timeZone),
      seconds: p.seconds,
      receivedAt: new Date(now),
    })),
  );
}
