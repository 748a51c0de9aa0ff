import type { EventData, EventEnvelope, Subject } from '@pagecast/contracts';

type Route = (data: unknown, event: EventEnvelope) => unknown;
/** The envelope of one of the subjects `S`: checking its `type` narrows its `data`. */
export type EnvelopeOf<S extends Subject> = S extends Subject ? EventEnvelope<S> : never;

/**
 * One typed dispatcher for the events a service hears: `on(subject, (data) => …)` with `data` typed by the subject's
 * zod schema in the contracts (consume and followEvents parse every message with it, `parseEvent`, before it gets
 * here), so no handler casts `event.data`. The routes carry their `subjects` and a `handler`, the two options consume
 * and followEvents take: `consume(js, { stream, durable, logger, ...routes })`, `followEvents(nats, routes, opts)`.
 */
export interface EventRoutes {
  readonly subjects: Subject[];
  on<S extends Subject>(
    subject: S | readonly S[],
    fn: (data: EventData<S>, event: EnvelopeOf<S>) => unknown,
  ): EventRoutes;
  handler(event: EventEnvelope): Promise<void>;
}

export function eventRoutes(): EventRoutes {
  const routes = new Map<Subject, Route>();
  const self: EventRoutes = {
    subjects: [] as Subject[],
    /** Routes `subject` (or each of several with the same handling) to `fn`; a subject is routed once. */
    on<S extends Subject>(
      subject: S | readonly S[],
      fn: (data: EventData<S>, event: EnvelopeOf<S>) => unknown,
    ): EventRoutes {
      for (const s of typeof subject === 'string' ? [subject] : subject) {
        if (routes.has(s)) throw new Error(`${s} is routed twice`);
        routes.set(s, fn as Route);
        self.subjects.push(s);
      }
      return self;
    },
    /** Hands a parsed event to its route (an event of a subject not routed is ignored). */
    async handler(event: EventEnvelope): Promise<void> {
      await routes.get(event.type)?.(event.data, event);
    },
  };
  return self;
}
