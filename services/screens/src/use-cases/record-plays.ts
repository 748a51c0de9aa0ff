import type { DeviceIdentity, PlayBatchRequest, PlayBatchResponse } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { playBatchProblems } from '../domain';
import { screenOfDevice } from './device-screen';
import { noteContact } from './display-contact';
import { checkSignedBatch, storeSignedBatch } from './signed-batch';

/**
 * Proof of play, the display's part. A batch with a future-dated, too old or repeated record (or a bad signature) is
 * refused whole and stores nothing. Otherwise its records go into the intake stream, each under its own id, and the
 * answer says the display may forget them: `accepted` the records the stream took, `duplicates` those it already
 * held (a resend inside its duplicate window). Judging (domain/play-evidence), the ledger, the records and the
 * rollups follow behind the stream (judgePlays below, run by events/play-judge.ts), exactly once in effect: a record
 * is stored once under its id, a judge that dies is followed by another from the last checkpoint, and what the judge
 * stores for a record does not depend on when it runs (each record carries its batch's arrival time).
 */
export async function recordPlays(
  ctx: ServiceContext,
  device: DeviceIdentity,
  input: PlayBatchRequest,
): Promise<PlayBatchResponse> {
  const screen = await screenOfDevice(ctx, device);
  // signed proof of play: the signature is checked before anything is judged, the batch kept once it passes
  const signed = await checkSignedBatch(ctx, screen, input);
  const now = ctx.clock.ms();
  const problems = playBatchProblems(input.plays, now);
  if (problems.length > 0) {
    throw new AppError('PLAY_BATCH_INVALID', {
      issues: problems.map((p) => ({ path: `plays.${p.index}`, message: p.reason, key: `screens.plays.${p.reason}` })),
    });
  }
  if (signed) await storeSignedBatch(ctx, screen, signed, input.plays);
  // an offline gap is noted at the batch's arrival, before its records are judged against it
  await noteContact(ctx, screen, now);
  // a signed batch says when its display signed it: its clock then, measured like a heartbeat's sentAt
  const signedAt = input.signed ? Date.parse(input.signed.sentAt) : undefined;
  const { taken, duplicates } = await ctx.data.intake.publish(
    input.plays.map((play) => ({
      screenId: screen._id,
      play,
      at: now,
      ...(signedAt !== undefined ? { signedAt } : {}),
    })),
  );
  return { accepted: taken, duplicates, refused: 0, refusedByReason: {} };
}
