// Screens' status reports, live (issue 36): every heartbeat a display sends replaces its screen's value in the
// screens service's key-value bucket `screen_status` (JetStream stream KV_screen_status, subject
// `$KV.screen_status.<screenId>`). This feed reads those puts and tells the owner's Screens page (its stream opened
// with `screens=mine`, watch key owner:<userId>) that a screen reported, with the screen's id only: the page reads
// its screens again with its own session, so a freshly paired screen turns online, and now playing and last seen
// move, without a reload.
//
// One ordered consumer from the stream's next sequence, like live.ts; the stream is made by the screens service, so
// until it exists the feed retries every 2 s (a gateway may start first).
import { DeliverPolicy, type JetStreamClient } from '@nats-io/jetstream';
import { PULL_EXPIRES_MS } from '@pagecast/service-kit';
import type { EventsHub } from './events';
import type { Logger } from './log';
import { watchKey } from './watches';

export const STATUS_STREAM = 'KV_screen_status';
export const STATUS_SUBJECTS = '$KV.screen_status.>';
/** The type of the forwarded event (not a NATS event subject: a status report is soft state, not an event). */
export const SCREEN_STATUS_EVENT = 'screens.screen.status';

export interface StatusFeed {
  /** Resolves when the consumer is in place (never, while the screens service has not made its bucket). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/** The screen and its owner of a status value, or undefined for a delete, a purge or a value of another shape. */
export function statusOwner(data: Uint8Array): { screenId: string; ownerId: string } | undefined {
  if (data.length === 0) return undefined;
  try {
    const value = JSON.parse(new TextDecoder().decode(data)) as { screenId?: unknown; ownerId?: unknown };
    if (typeof value.screenId === 'string' && typeof value.ownerId === 'string') {
      return { screenId: value.screenId, ownerId: value.ownerId };
    }
  } catch {
    // not a status value
  }
  return undefined;
}

export function startStatusFeed(opts: { js: JetStreamClient; hub: EventsHub; logger: Logger }): StatusFeed {
  const { js, hub, logger } = opts;
  let stopped = false;
  let open: { close(): Promise<unknown> } | undefined;
  let nextSeq: number | undefined;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const runOnce = async () => {
    if (nextSeq === undefined) {
      const jsm = await js.jetstreamManager();
      nextSeq = (await jsm.streams.info(STATUS_STREAM)).state.last_seq + 1;
    }
    const consumer = await js.consumers.get(STATUS_STREAM, {
      filter_subjects: [STATUS_SUBJECTS],
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: nextSeq,
    });
    const messages = await consumer.consume({ expires: PULL_EXPIRES_MS });
    open = messages;
    markReady();
    try {
      for await (const m of messages) {
        nextSeq = m.seq + 1;
        const status = statusOwner(m.data);
        if (!status) continue;
        hub.forward({ id: `status-${m.seq}`, type: SCREEN_STATUS_EVENT, data: { screenId: status.screenId } }, [
          watchKey.owner(status.ownerId),
        ]);
      }
    } finally {
      open = undefined;
    }
  };

  void (async () => {
    while (!stopped) {
      try {
        await runOnce();
      } catch (err) {
        if (stopped) break;
        logger.debug({ err }, 'screen status feed not running; retrying in 2 s');
      }
      if (!stopped) await new Promise((r) => setTimeout(r, 2000).unref());
    }
  })();

  return {
    ready,
    async stop() {
      stopped = true;
      await open?.close().catch(() => undefined);
    },
  };
}
