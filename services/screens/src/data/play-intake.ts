// The play intake: a display's records go into a JetStream stream (one subject per screen, each record one message
// whose Nats-Msg-Id is the record's id, so a batch sent again inside the duplicate window is dropped by the stream)
// and are judged behind it, in stream order, by one instance at a time (events/play-judge.ts). What a display's call
// costs is the stream's acknowledgements, whatever the size of the database. A batch's records go out together,
// each with its id, and their acknowledgements are awaited together on one inbox (service-kit stream-publisher.ts:
// no request per record); the display is answered only once every record is stored.
import type { PlayRecord } from '@pagecast/contracts';
import { AppError, createStreamPublisher, ensureStreams, type Nats, StreamPublishError } from '@pagecast/service-kit';
import type mongoose from 'mongoose';

/** The stream's duplicate window: a resend inside it is answered `duplicates` and never reaches the judge. */
export const INTAKE_DUPLICATE_WINDOW_MS = 10 * 60_000;
/** How long a record waits in the stream at most (a judge down longer than this loses what it had not read). */
export const INTAKE_MAX_AGE_MS = 7 * 86_400_000;

/** One record as it waits to be judged: what the display sent and what its batch's arrival said. */
export interface IntakeRecord {
  screenId: string;
  /** the record as the display sent it */
  play: PlayRecord;
  /** when the batch arrived (ms, the service's clock): the judge's "now" for this record */
  at: number;
  /** the signed batch's sentAt (ms), when signed: the display's clock then */
  signedAt?: number;
}

export interface IntakeMessage extends IntakeRecord {
  /** the stream sequence: the judge's order and the rollups' high-water mark */
  seq: number;
}

interface CheckpointDoc {
  _id: string;
  /** the last stream sequence whose records are judged and stored */
  seq: number;
  at: Date;
}

/** The stream's subjects: `<stream name in lower case>.<screenId>` (tests run a stream of their own). */
export const intakeSubjectOf = (stream: string, screenId: string) => `${stream.toLowerCase()}.${screenId}`;

export function createPlayIntake(
  conn: mongoose.Connection,
  nats: Nats,
  opts: { stream: string; maxPending?: number; timeoutMs?: number },
) {
  const { stream } = opts;
  const publisher = createStreamPublisher(nats.nc, {
    ...(opts.maxPending !== undefined ? { maxPending: opts.maxPending } : {}),
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
  });
  const checkpoints = conn.collection<CheckpointDoc>('play_judge_checkpoints');
  let ready: Promise<void> | undefined;
  const ensure = () => {
    ready ??= ensureStreams(nats.jsm, [
      {
        name: stream,
        subjects: [`${stream.toLowerCase()}.*`],
        retention: 'limits',
        duplicateWindowMs: INTAKE_DUPLICATE_WINDOW_MS,
        maxAgeMs: INTAKE_MAX_AGE_MS,
      },
    ]).catch((err) => {
      ready = undefined;
      throw err;
    });
    return ready;
  };
  const codec = new TextEncoder();
  const decoder = new TextDecoder();

  return {
    stream,
    ensure,
    /**
     * Publishes each record under its id, all at once, and waits for the stream's acknowledgement of every one.
     * Returns how many the stream took and how many it dropped as already taken (same id inside the duplicate
     * window). Any record refused or unanswered: SERVICE_UNAVAILABLE (the display keeps its batch and sends it again;
     * what the stream did store is then a duplicate), with the publisher's counts as its cause.
     */
    async publish(records: IntakeRecord[]): Promise<{ taken: number; duplicates: number }> {
      await ensure();
      const subjectOf = (screenId: string) => intakeSubjectOf(stream, screenId);
      try {
        const acks = await publisher.publishAll(
          records.map((r) => ({
            subject: subjectOf(r.screenId),
            data: codec.encode(JSON.stringify(r)),
            msgId: r.play.id,
          })),
        );
        let duplicates = 0;
        for (const a of acks) if (a.duplicate) duplicates += 1;
        return { taken: acks.length - duplicates, duplicates };
      } catch (err) {
        if (err instanceof StreamPublishError) {
          throw new AppError('SERVICE_UNAVAILABLE', {
            cause: err,
            details: { refused: err.refused, unanswered: err.unanswered },
          });
        }
        throw err;
      }
    },
    /** Records waiting for their acknowledgement, and batches waiting for room (figures, tests). */
    pending: () => publisher.pending(),
    /** A stream message as a record to judge; throws when it is not one. */
    decode(seq: number, data: Uint8Array): IntakeMessage {
      const r = JSON.parse(decoder.decode(data)) as IntakeRecord;
      if (typeof r?.screenId !== 'string' || typeof r.play?.id !== 'string' || typeof r.at !== 'number') {
        throw new Error('not a play record');
      }
      return { ...r, seq };
    },
    /**
     * Records taken and not yet judged and written: the stream's end ahead of the judge's checkpoint (the whole stream
     * when there is none, or when the stream was made anew). What an operator watches, and what a test waits on.
     */
    async backlog(): Promise<number> {
      await ensure();
      const [info, doc] = await Promise.all([nats.jsm.streams.info(stream), checkpoints.findOne({ _id: stream })]);
      const { last_seq: last, messages } = info.state;
      return !doc || doc.seq > last ? messages : Math.max(0, last - doc.seq);
    },
    /** The judge's position: the last sequence judged (null: never judged on this database). */
    async checkpoint(): Promise<number | null> {
      const doc = await checkpoints.findOne({ _id: stream });
      return doc ? doc.seq : null;
    },
    /** Written by the one judge holding the lease, after what it names is stored. */
    async setCheckpoint(seq: number, at: Date): Promise<void> {
      await checkpoints.updateOne({ _id: stream }, { $set: { seq, at } }, { upsert: true });
    },
    /** The stream's first and last sequence (what a judge starting on an empty database starts from). */
    async bounds(): Promise<{ first: number; last: number }> {
      await ensure();
      const info = await nats.jsm.streams.info(stream);
      return { first: info.state.first_seq, last: info.state.last_seq };
    },
    /** Drops what the judge has stored (the stream holds only what waits to be judged). */
    async purgeThrough(seq: number): Promise<void> {
      await nats.jsm.streams.purge(stream, { seq: seq + 1 });
    },
  };
}
export type PlayIntake = ReturnType<typeof createPlayIntake>;
