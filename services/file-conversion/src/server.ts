import { type Logger, type RunningService, runPeriodically, startServiceRuntime } from '@pagecast/service-kit';
import { type Config, type ServiceSettings, settingsOf } from './config';
import { closeDefaultOffices } from './conversion';
import { createRepositories, createWriteClient, ensureIndexes, ResumableStore } from './data';
import { startConsumers } from './events';
import { serveDeviceReads } from './events/device-reads';
import { createRouter } from './http';
import { expireResumableUploads } from './use-cases/resumable-upload';
import { backfillPreviewClips, clipBackfill, LocalOriginals, startConversionWorkers } from './workers';

import type { ServiceContext } from './context';

export type { ServiceContext } from './context';
export const SERVICE_NAME = 'file-conversion';
/** This service's own database (docs/platform.md); MONGO_DB overrides it (tests). */
export const DATABASE_NAME = 'pagecast_file_conversion';

export type Server = RunningService<ServiceContext>;

/**
 * Connects to the servers, starts the outbox relay, the consumers and HTTP on config.PORT (0 = any free port).
 * Used by main.ts and by the component tests, which run the real service in-process.
 */
export async function createServer(
  config: Config,
  opts: { logger?: Logger; settings?: Partial<ServiceSettings> } = {},
): Promise<Server> {
  // CONVERSION_ROLE and the worker settings: from the environment unless the caller (a test) gives them.
  const settings: ServiceSettings = { ...settingsOf(config), ...opts.settings };
  const api = settings.CONVERSION_ROLE !== 'worker';
  const workers = settings.CONVERSION_ROLE !== 'api';
  return startServiceRuntime({
    name: SERVICE_NAME,
    config,
    logger: opts.logger,
    databaseName: DATABASE_NAME,
    s3: true,
    context: async (base, onClose): Promise<ServiceContext> => {
      const resumable = new ResumableStore({
        endpoint: config.S3_ENDPOINT,
        accessKey: config.S3_ACCESS_KEY,
        secretKey: config.S3_SECRET_KEY,
        bucket: base.s3.bucket,
        expiryMs: settings.RESUMABLE_UPLOAD_EXPIRY_MS,
      });
      onClose(async () => resumable.spool.clear());
      const writer = createWriteClient({
        endpoint: config.S3_ENDPOINT,
        accessKey: config.S3_ACCESS_KEY,
        secretKey: config.S3_SECRET_KEY,
      });
      onClose(async () => writer.destroy());
      const data = createRepositories(base.conn, base.s3, base.clock, resumable, writer);
      await ensureIndexes(data);
      const localOriginals = workers ? new LocalOriginals() : undefined;
      if (localOriginals) onClose(async () => localOriginals.clear());
      return { ...base, data, settings, localOriginals };
    },
    mount: async (context, onClose) => {
      if (api) {
        const consumers = await startConsumers(context);
        onClose(() => Promise.all(consumers.map((c) => c.stop())));
        // unfinished resumable uploads past their expiry: every instance may sweep, removing twice is harmless
        const sweep = runPeriodically(15 * 60 * 1000, () => expireResumableUploads(context), {
          logger: context.logger,
          name: 'resumable upload expiry',
        });
        onClose(() => sweep.stop());
        // the displays' content reads relayed by the gateway from their sockets (core NATS, shared by the instances)
        const reads = serveDeviceReads(context);
        onClose(() => reads.stop());
      }
      if (workers) {
        const running = await startConversionWorkers(context);
        // videos with no preview clip (converted before clips, or the clip failed): a few at a time, bounded per file
        const clips = runPeriodically(clipBackfill.everyMs, () => backfillPreviewClips(context), {
          logger: context.logger,
          name: 'preview clip backfill',
          runAtStart: true,
        });
        onClose(async () => {
          await clips.stop();
          await running.stop();
          await closeDefaultOffices();
        });
      }
      // A worker-only process answers health and metrics, not the API.
      return api ? [createRouter(context)] : [];
    },
  });
}
