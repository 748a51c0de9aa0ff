// Live updates: reads the events players care about from JetStream and hands each to the SSE hub (events.ts),
// reduced to ids, for the streams watching that playlist or file.
//
// One ordered (ephemeral, unacknowledged, flow-controlled) consumer per stream: JetStream consumers belong to one
// stream, and these subjects live in two (FILES, MARKETPLACE). Each starts at the stream's next sequence ("deliver
// new": a gateway has no one to replay history to) and, after a failure, resumes after the last sequence it saw
// (the kit's followStream: again after a wait that grows with each failure in a row).
//
// Environment (read here, not in config.ts): SSE_MAX_STREAMS (default 10000) caps open streams in this gateway;
// SSE_MAX_STREAMS_PER_SESSION (default 20) closes a session's oldest stream when it opens one more.
import { DeliverPolicy, type JetStreamClient } from '@nats-io/jetstream';
import { type AnyEvent, parseEvent, subjects } from '@pagecast/contracts';
import { followStream, PULL_EXPIRES_MS, type StreamFollower } from '@pagecast/service-kit';
import { z } from 'zod';
import { type EventsHub, type ForwardedEvent, type LiveLimits, watchKey } from './events';
import type { Logger } from './log';

/** Subjects forwarded to browsers, by the stream that stores them. */
export const liveSubjects = {
  FILES: [
    subjects.playlistSaved,
    subjects.playlistDeleted,
    subjects.fileUpdated,
    subjects.fileDeleted,
    subjects.pageReady,
  ] as string[],
  MARKETPLACE: [subjects.licenceExpired] as string[],
  SCREENS: [subjects.screenChanged, subjects.fleetChanged] as string[],
} as const;

/** The index keys an event concerns and the ids it may show: the fact of a change, no content. */
export function liveView(event: AnyEvent): { keys: string[]; forwarded: ForwardedEvent } | undefined {
  const out = (key: string, data: Record<string, string>) => ({
    keys: [key],
    forwarded: { id: event.id, type: event.type, data },
  });
  switch (event.type) {
    case subjects.playlistSaved:
    case subjects.playlistDeleted:
      return out(watchKey.playlist(event.data.playlistId), { playlistId: event.data.playlistId });
    case subjects.fileUpdated:
    case subjects.fileDeleted:
    case subjects.pageReady:
    case subjects.licenceExpired:
      return out(watchKey.file(event.data.fileId), { fileId: event.data.fileId });
    case subjects.screenChanged:
      return out(watchKey.screen(event.data.screenId), { screenId: event.data.screenId });
    // one change to many screens: each display it names re-reads its manifest, as after a change of its
    // own screen; the forwarded event names no screen, so no display learns another's id
    case subjects.fleetChanged:
      return {
        keys: event.data.screenIds.map((id) => watchKey.screen(id)),
        forwarded: { id: event.id, type: subjects.screenChanged, data: {} },
      };
    default:
      return undefined;
  }
}

const positiveInt = z.coerce.number().int().positive();

/** SSE_MAX_STREAMS and SSE_MAX_STREAMS_PER_SESSION from the environment; bad values are refused at start. */
export function liveLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<LiveLimits> {
  const out: Partial<LiveLimits> = {};
  if (env.SSE_MAX_STREAMS) out.maxStreams = positiveInt.parse(env.SSE_MAX_STREAMS);
  if (env.SSE_MAX_STREAMS_PER_SESSION) out.maxStreamsPerSession = positiveInt.parse(env.SSE_MAX_STREAMS_PER_SESSION);
  if (env.SSE_MAX_STREAMS_PER_MEMBER) out.maxStreamsPerMember = positiveInt.parse(env.SSE_MAX_STREAMS_PER_MEMBER);
  return out;
}

export interface LiveFeed {
  /** Resolves when every consumer is in place: events published from then on reach the streams. */
  ready: Promise<void>;
  /** Events forwarded to at least one stream, and events read. */
  readonly counts: { read: number; forwarded: number };
  stop(): Promise<void>;
}

export function startLiveFeed(opts: {
  js: JetStreamClient;
  hub: EventsHub;
  logger: Logger;
  /** every event read, before it is forwarded (the page-image access cache drops what it may have changed) */
  onEvent?: (event: AnyEvent) => void;
}): LiveFeed {
  const { js, hub, logger } = opts;
  const counts = { read: 0, forwarded: 0 };
  const open = new Set<{ close(): Promise<unknown> }>();
  const followers: StreamFollower[] = [];

  const follow = (stream: keyof typeof liveSubjects) => {
    let markReady!: () => void;
    const ready = new Promise<void>((resolve) => {
      markReady = resolve;
    });
    /** the next sequence to read; set at the first start, advanced by every message */
    let nextSeq: number | undefined;

    const runOnce = async (live: () => void) => {
      if (nextSeq === undefined) {
        const jsm = await js.jetstreamManager();
        nextSeq = (await jsm.streams.info(stream)).state.last_seq + 1;
      }
      // Starting at an explicit sequence (not DeliverPolicy.New) also covers events published while the
      // consumer is being created.
      const consumer = await js.consumers.get(stream, {
        filter_subjects: liveSubjects[stream],
        deliver_policy: DeliverPolicy.StartSequence,
        opt_start_seq: nextSeq,
      });
      const messages = await consumer.consume({ expires: PULL_EXPIRES_MS });
      open.add(messages);
      markReady();
      live();
      try {
        for await (const m of messages) {
          nextSeq = m.seq + 1;
          counts.read++;
          let event: AnyEvent;
          try {
            event = parseEvent(m.json());
          } catch (err) {
            logger.debug({ err, subject: m.subject, seq: m.seq }, 'live: malformed event skipped');
            continue;
          }
          try {
            opts.onEvent?.(event);
          } catch (err) {
            logger.error({ err, subject: m.subject }, 'live: event hook failed');
          }
          const view = liveView(event);
          if (view && hub.forward(view.forwarded, view.keys) > 0) counts.forwarded++;
        }
      } finally {
        open.delete(messages);
      }
    };

    followers.push(
      followStream(runOnce, { name: `live feed (${stream})`, waitingFor: `the ${stream} stream`, logger }),
    );
    return ready;
  };

  const ready = Promise.all([follow('FILES'), follow('MARKETPLACE'), follow('SCREENS')]).then(() => undefined);
  return {
    ready,
    counts,
    async stop() {
      for (const f of followers) f.stop();
      await Promise.all([...open].map((m) => m.close().catch(() => undefined)));
    },
  };
}
