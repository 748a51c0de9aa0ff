// Screens' status reports, live: every heartbeat a display sends replaces its screen's value in the
// screens service's key-value bucket `screen_status` (JetStream stream KV_screen_status, subject
// `$KV.screen_status.<screenId>`). This feed reads those puts and tells the owner's Screens page (its stream opened
// with `screens=mine`, watch key owner:<userId>) that a screen reported, with the screen's id only: the page reads
// its screens again with its own session, so a freshly paired screen turns online, and now playing and last seen
// move, without a reload.
//
// One ordered consumer from the stream's next sequence, like live.ts; the stream is made by the screens service, so
// until it exists the feed tries again, after a wait that grows with each failure (a gateway may start first).
//
// The consumer runs only while a Screens page is open on this gateway (a stream watches an owner key), and
// stops LINGER_MS after the last one closed. Every display's heartbeat is a put in the bucket (about 670 a second at
// 10,000 screens), which the gateway otherwise read and parsed, for no one, almost all of the time. A page that opens
// reads its screens itself, then hears the reports made from the moment the consumer is in place (its next sequence);
// one made in between shows at the screen's next heartbeat.
import { DeliverPolicy, type JetStreamClient } from '@nats-io/jetstream';
import { followStream, PULL_EXPIRES_MS } from '@pagecast/service-kit';
import type { EventsHub } from './events';
import type { Logger } from './log';
import { watchKey } from './watches';

export const STATUS_STREAM = 'KV_screen_status';
export const STATUS_SUBJECTS = '$KV.screen_status.>';
/** The type of the forwarded event (not a NATS event subject: a status report is soft state, not an event). */
export const SCREEN_STATUS_EVENT = 'screens.screen.status';

export interface StatusFeed {
  /**
   * Resolves when the feed is in place: the consumer, while a Screens page is open (never, while the screens service
   * has not made its bucket); at once while none is.
   */
  ready: Promise<void>;
  /** status values read (for tests and metrics) */
  readonly counts: { read: number };
  /** whether the consumer runs now */
  readonly following: boolean;
  stop(): Promise<void>;
}

/** How long the consumer stays after the last Screens page closed (a reload opens the next one at once). */
export const LINGER_MS = 30_000;

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

export function startStatusFeed(opts: {
  js: JetStreamClient;
  hub: EventsHub;
  logger: Logger;
  lingerMs?: number;
}): StatusFeed {
  const { js, hub, logger } = opts;
  const lingerMs = opts.lingerMs ?? LINGER_MS;
  const counts = { read: 0 };
  let stopped = false;
  let open: { close(): Promise<unknown> } | undefined;
  /** the run in progress (its loop ends when `wanted` turns false), or none */
  let running: Promise<void> | undefined;
  let wanted = false;
  let lingering: NodeJS.Timeout | undefined;
  let markReady!: () => void;
  let ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const runOnce = async (live: () => void) => {
    // from the next report: a page reads its screens itself when it opens
    const jsm = await js.jetstreamManager();
    const nextSeq = (await jsm.streams.info(STATUS_STREAM)).state.last_seq + 1;
    const consumer = await js.consumers.get(STATUS_STREAM, {
      filter_subjects: [STATUS_SUBJECTS],
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: nextSeq,
    });
    const messages = await consumer.consume({ expires: PULL_EXPIRES_MS });
    open = messages;
    if (!wanted) await messages.close();
    markReady();
    live();
    try {
      for await (const m of messages) {
        counts.read++;
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

  const follow = () => {
    if (running) return;
    running = followStream(runOnce, {
      name: 'screen status feed',
      waitingFor: `the screens service's status bucket (stream ${STATUS_STREAM})`,
      logger,
      level: 'debug',
      active: () => !stopped && wanted,
    }).done.finally(() => {
      running = undefined;
      // asked for again while the last run was ending
      if (wanted && !stopped) follow();
    });
  };

  const onOwners = (count: number) => {
    if (count > 0) {
      if (lingering) clearTimeout(lingering);
      lingering = undefined;
      if (!wanted) {
        wanted = true;
        ready = new Promise<void>((resolve) => {
          markReady = resolve;
        });
        follow();
      }
      return;
    }
    if (!wanted || lingering) return;
    lingering = setTimeout(() => {
      lingering = undefined;
      wanted = false;
      markReady();
      void open?.close().catch(() => undefined);
    }, lingerMs);
    lingering.unref();
  };
  const unsubscribe = hub.onWatchedKinds((kind, count) => {
    if (kind === 'owner') onOwners(count);
  });
  if (hub.watchedOfKind('owner') > 0) onOwners(hub.watchedOfKind('owner'));
  else markReady();

  return {
    get ready() {
      return ready;
    },
    counts,
    get following() {
      return wanted;
    },
    async stop() {
      stopped = true;
      wanted = false;
      unsubscribe();
      if (lingering) clearTimeout(lingering);
      await open?.close().catch(() => undefined);
    },
  };
}
