import { type EventData, parseEvent, subjects } from '@pagecast/contracts';
import {
  type Clock,
  ensureConsumer,
  type Logger,
  type Nats,
  type Outbox,
  permanentNatsError,
  startRetry,
  untilReady,
} from '@pagecast/service-kit';
import type { JsMsg } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { isConversionError, type RenderPool } from '../conversion/index.ts';
import type { Repositories } from '../data';
import { convertFile, disableFile, FileGoneError, removeUnusedObjects, WorkerStoppingError } from './convert-job';
import type { LocalOriginals } from './local-originals';
import type { ServiceSettings } from '../config';

export { backfillPreviewClips, clipBackfill, type ClipBackfillOptions } from './clip-backfill';
export { LocalOriginals } from './local-originals';

export const CONVERSION_STREAM = 'CONVERSION';
/** One durable for every worker of every process: a work queue allows one consumer per subject. */
export const CONVERSION_DURABLE = 'file-conversion-workers';
/**
 * A job for a file this database does not know is handed back at once, this many times: another process on the
 * same queue but another database (test runs sharing one NATS) may own it; a deleted file's job ends after these.
 */
const UNKNOWN_FILE_DELIVERIES = 50;

export interface WorkerDeps {
  nats: Nats;
  data: Repositories;
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  settings: ServiceSettings;
  pool?: RenderPool;
  localOriginals?: LocalOriginals;
}

export interface RunningWorkers {
  /** jobs being converted right now */
  active(): number;
  stop(): Promise<void>;
}

/** The durable and subject of this process's partition of the work queue (see CONVERSION_QUEUE). */
export function conversionQueue(queue: string | undefined): { durable: string; subject: string } {
  return queue
    ? { durable: `${CONVERSION_DURABLE}-${queue}`, subject: `${subjects.conversionRequested}.${queue}` }
    : { durable: CONVERSION_DURABLE, subject: subjects.conversionRequested };
}

/** The work queue's durable consumer (JetStream not answering yet at start is waited for: service-kit). */
async function ensureQueueConsumer(deps: WorkerDeps): Promise<void> {
  const { jsm } = deps.nats;
  const { durable, subject } = conversionQueue(deps.settings.CONVERSION_QUEUE);
  const config = {
    filter_subject: subject,
    // a named partition (a test run) that nobody pulls from for an hour is removed by the server
    ...(deps.settings.CONVERSION_QUEUE ? { inactive_threshold: nanos(3_600_000) } : {}),
    ack_wait: nanos(deps.settings.CONVERSION_ACK_WAIT_MS),
    // attempts are counted by the handler (it disables the file), not by the server
    max_deliver: -1,
    max_ack_pending: 1000,
  };
  await ensureConsumer(jsm, CONVERSION_STREAM, durable, config, { logger: deps.logger });
}

/**
 * Pulls conversion jobs from the CONVERSION work queue, CONVERSION_CONCURRENCY at a time. A job is acked when its
 * file is converted or refused; while it runs, heartbeats (working) hold it; if the process dies the server gives
 * it to another worker after the ack wait. The delivery after CONVERSION_MAX_ATTEMPTS disables the file.
 */
export async function startConversionWorkers(deps: WorkerDeps): Promise<RunningWorkers> {
  const { settings } = deps;
  const log = deps.logger.child({ component: 'conversion-worker' });
  await ensureQueueConsumer(deps);
  const { durable } = conversionQueue(deps.settings.CONVERSION_QUEUE);
  const consumer = await untilReady(
    `nats consumer ${CONVERSION_STREAM}/${durable}`,
    () => deps.nats.js.consumers.get(CONVERSION_STREAM, durable),
    startRetry(log),
    permanentNatsError,
  );
  let stopping = false;
  const running = new Set<JsMsg>();

  const handle = async (m: JsMsg) => {
    let job: EventData<'files.conversion.requested.v1'>;
    try {
      const event = parseEvent(m.json());
      if (event.type !== subjects.conversionRequested) throw new Error(`unexpected ${event.type}`);
      job = event.data;
      // real time on both sides (the outbox stamps events with it): how long the job waited in the queue
      log.debug({ fileId: job.fileId, waitedMs: Date.now() - Date.parse(event.occurredAt) }, 'job received');
    } catch (err) {
      log.error({ err, seq: m.seq }, 'bad conversion job terminated');
      m.term('bad message');
      return;
    }
    const file = await deps.data.files.findById(job.fileId);
    if (!file) {
      if (m.info.deliveryCount < UNKNOWN_FILE_DELIVERIES) m.nak(50);
      else m.term('file not found');
      return;
    }
    if (file.status !== 'processing') {
      m.ack(); // done already (a duplicate or a late redelivery)
      return;
    }
    // Attempts are counted on the file (a worker records its attempt when it starts), not by deliveries: a delivery
    // to a process that cannot see the file (another deployment on the same queue) is not an attempt.
    const attempt = file.conversion.attempts + 1;
    if (attempt > settings.CONVERSION_MAX_ATTEMPTS) {
      log.error({ fileId: file._id, attempt }, 'conversion given up after repeated attempts');
      await disableFile(deps, file._id, 'CONVERSION_FAILED');
      m.ack();
      return;
    }
    running.add(m);
    const heartbeat = setInterval(() => m.working(), Math.max(500, settings.CONVERSION_ACK_WAIT_MS / 3));
    try {
      await convertFile({ ...deps, stopping: () => stopping }, file, job, attempt);
      m.ack();
    } catch (err) {
      if (isConversionError(err)) {
        log.warn({ fileId: file._id, code: err.code, message: err.message }, 'file refused by the converter');
        await disableFile(deps, file._id, err.code);
        m.ack();
      } else if (err instanceof FileGoneError) {
        // deleted meanwhile: whatever this run stored goes too
        await removeUnusedObjects(deps.data, await deps.data.files.deletePages(file._id));
        m.ack();
      } else if (err instanceof WorkerStoppingError || stopping) {
        m.nak();
      } else if (attempt >= settings.CONVERSION_MAX_ATTEMPTS) {
        log.error({ err, fileId: file._id, attempt }, 'conversion failed; giving up');
        await disableFile(deps, file._id, 'CONVERSION_FAILED');
        m.ack();
      } else {
        log.warn({ err, fileId: file._id, attempt }, 'conversion failed; will retry');
        m.nak(1000 * attempt);
      }
    } finally {
      clearInterval(heartbeat);
      running.delete(m);
      deps.localOriginals?.release(file._id);
    }
  };

  const loop = async () => {
    while (!stopping) {
      let m: JsMsg | null = null;
      try {
        m = await consumer.next({ expires: 1000 });
      } catch (err) {
        if (stopping) break;
        log.warn({ err }, 'pulling a job failed; retrying');
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      if (!m) continue;
      if (stopping) {
        m.nak();
        break;
      }
      await handle(m).catch((err) => {
        log.error({ err }, 'conversion job handler failed');
        m?.nak(1000);
      });
    }
  };

  const loops = Array.from({ length: settings.CONVERSION_CONCURRENCY }, () => loop());
  log.info(
    { concurrency: settings.CONVERSION_CONCURRENCY, ackWaitMs: settings.CONVERSION_ACK_WAIT_MS },
    'conversion workers started',
  );
  return {
    active: () => running.size,
    async stop() {
      stopping = true;
      // Jobs in progress stop at their next page and go back to the queue; do not wait for LibreOffice.
      await Promise.race([Promise.all(loops), new Promise((r) => setTimeout(r, 5000))]);
    },
  };
}
