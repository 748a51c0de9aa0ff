// Publishing reports onto JetStream for the replay CLI and tests (the screens service publishes through its own
// connection). Kept out of the package's main export: the player must not bundle a NATS client.
import { JetStreamApiError, jetstream, jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { connect, nanos } from '@nats-io/transport-node';

/** The stream the screens service reads (contracts' alertStream, copied: this file runs under Node without the contracts build; services/screens/test/alerts.test.ts checks they agree). */
export const ALERTS_STREAM = {
  name: 'ALERTS',
  subjects: ['alerts.>'],
  duplicateWindowMs: 120_000,
  maxAgeMs: 7 * 24 * 3600 * 1000,
};
export const ALERT_REPORT_SUBJECT = 'alerts.report.v1';

const API_STREAM_NOT_FOUND = 10059;
const API_STREAM_NAME_IN_USE = 10058;

export interface AlertsPublisher {
  /** publishes one report; `duplicate` when JetStream had the same message id within its window */
  publish(xml: Uint8Array, msgId: string): Promise<{ duplicate: boolean; seq: number }>;
  close(): Promise<void>;
}

/**
 * Connects to NATS (NATS_URL: one server or a comma-separated list), creates the stream when missing (left as it is
 * when it exists: the screens service owns its settings) and returns a publisher.
 */
export async function connectAlertsPublisher(
  url: string,
  opts: { stream?: typeof ALERTS_STREAM; subject?: string } = {},
): Promise<AlertsPublisher> {
  const def = opts.stream ?? ALERTS_STREAM;
  const subject = opts.subject ?? ALERT_REPORT_SUBJECT;
  const servers = url
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const nc = await connect({ servers, name: 'pagecast-alerts', timeout: 5000 });
  try {
    const jsm = await jetstreamManager(nc);
    const exists = await jsm.streams.info(def.name).then(
      () => true,
      (err: unknown) => {
        if (err instanceof JetStreamApiError && err.code === API_STREAM_NOT_FOUND) return false;
        throw err;
      },
    );
    if (!exists) {
      await jsm.streams
        .add({
          name: def.name,
          subjects: [...def.subjects],
          retention: RetentionPolicy.Limits,
          storage: StorageType.File,
          duplicate_window: nanos(def.duplicateWindowMs),
          max_age: nanos(def.maxAgeMs),
        })
        .catch((err: unknown) => {
          // created by another publisher between the two calls
          if (!(err instanceof JetStreamApiError && err.code === API_STREAM_NAME_IN_USE)) throw err;
        });
    }
  } catch (err) {
    await nc.close();
    throw err;
  }
  const js = jetstream(nc);
  return {
    async publish(xml, msgId) {
      const ack = await js.publish(subject, xml, { msgID: msgId });
      return { duplicate: ack.duplicate, seq: ack.seq };
    },
    async close() {
      await nc.drain();
    },
  };
}
