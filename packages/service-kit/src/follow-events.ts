import { type EventEnvelope, parseEvent, type Subject } from '@pagecast/contracts';
import type { pino } from 'pino';
import type { Nats } from './nats';

export interface FollowedEvents {
  /** Times the connection came back after a loss: a view compares it to know it may have missed events. */
  readonly gaps: number;
  stop(): void;
}

/**
 * Every instance hears the events that change an in-memory view as they are published (docs/read-models.md): a
 * JetStream publish also reaches plain subscriptions of its subject, so no consumer and no acknowledgement are needed,
 * and each instance applies the event to its own memory. A plain subscription hears nothing while the connection is
 * down: `onGap` runs when it comes back, and the view drops or rebuilds what it holds (the stream's own durable
 * consumer, which writes the database, does not miss anything). A message that is not a valid event is ignored; a
 * handler that throws is logged and the view should not trust the entry it was changing (the handler forgets it before
 * throwing).
 */
export function followEvents(
  nats: Nats,
  routes: { subjects: readonly Subject[]; handler: (event: EventEnvelope) => unknown },
  opts: { logger?: pino.Logger; onGap?: () => void } = {},
): FollowedEvents {
  const notApplied = (error: unknown, event: EventEnvelope) =>
    opts.logger?.warn({ err: error, type: event.type, eventId: event.id }, 'followed event not applied');
  let gaps = 0;
  let stopped = false;
  const subscriptions = routes.subjects.map((subject) =>
    nats.nc.subscribe(subject, {
      callback: (err, msg) => {
        if (err || stopped) return;
        let event: EventEnvelope;
        try {
          event = parseEvent(msg.string());
        } catch {
          return; // not an event of ours
        }
        try {
          const out = routes.handler(event);
          if (out instanceof Promise) out.catch((error) => notApplied(error, event));
        } catch (error) {
          notApplied(error, event);
        }
      },
    }),
  );
  void (async () => {
    for await (const s of nats.nc.status()) {
      if (stopped) return;
      if (s.type === 'reconnect') {
        gaps++;
        opts.onGap?.();
      }
    }
  })();
  return {
    get gaps() {
      return gaps;
    },
    stop() {
      stopped = true;
      for (const s of subscriptions) s.unsubscribe();
    },
  };
}
