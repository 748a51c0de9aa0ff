// Server-sent events to signed-in browsers (GET /api/events). A stream says what it watches with the query
// parameters `playlist=<id>` and `file=<id>` (repeatable); live.ts feeds NATS events in through forward(), which
// finds the watching streams through one index (watch key → streams), O(1) per event and key.
//
// What goes out is only the fact of a change and ids, never content: the player refetches with its own session, so
// the gateway needs no access check here and a stream learns nothing it could not already read.
//
// This file opens and feeds the streams; sse.ts writes them, stream-index.ts keeps them, watches.ts reads what a
// stream watches, recent-changes.ts remembers what changed just before a stream opened.
import { errorMessagesJa } from '@pagecast/contracts';
import type express from 'express';
import { recentChanges } from './recent-changes';
import { greet, newStream, openEventStream } from './sse';
import { type EventClient, type Stream, streamIndex } from './stream-index';
import { parseWatches } from './watches';

export { SINCE_SLACK_MS } from './recent-changes';
export type { EventClient } from './stream-index';
export { watchKey } from './watches';

export interface LiveLimits {
  /** open streams in this gateway; more answer 503 (the player falls back to refetching on its own timer) */
  maxStreams: number;
  /** open streams per session; a new one closes the session's oldest (a player reopened in another tab) */
  maxStreamsPerSession: number;
  /**
   * open streams per member over all their sessions; more answer 429 (the member's other screens keep theirs, the
   * refused one refetches on its own timer): many sessions must not reach the global cap alone
   */
  maxStreamsPerMember: number;
  /** playlist + file ids one stream may watch */
  maxWatches: number;
  /** the browser's reconnect delay (`retry:`) */
  retryMs: number;
  /** a stream whose unsent bytes pass this is closed (a stalled client); it reconnects and resyncs */
  maxBufferedBytes: number;
  /**
   * A stream that opens on an id changed less than this ago is told to resync: its client read that id before the
   * stream existed (a player reads, then opens; it swaps streams when the ids it plays change), so the change may
   * have happened in between and reached no stream. Longer than that gap on a slow screen, short enough that
   * remembering every changed id costs little.
   */
  recentChangeMs: number;
}

export const defaultLiveLimits: LiveLimits = {
  maxStreams: 10_000,
  maxStreamsPerSession: 20,
  maxStreamsPerMember: 60,
  maxWatches: 50,
  retryMs: 2000,
  maxBufferedBytes: 256 * 1024,
  recentChangeMs: 60_000,
};

/** An event as streams receive it: `data: {"id","type","data"}` where data holds ids only. */
export interface ForwardedEvent {
  id: string;
  type: string;
  data: Record<string, string>;
}

/** A refusal to open a stream: nothing is kept, the client falls back to refetching on its own timer. */
function refuse(
  res: express.Response,
  status: number,
  code: 'VALIDATION' | 'SERVICE_UNAVAILABLE' | 'RATE_LIMITED',
  extra: { issues?: { path: string; message: string }[] } = {},
) {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  if (status !== 400) headers['Retry-After'] = '30';
  res
    .status(status)
    .set(headers)
    .json({ code, message: errorMessagesJa[code], ...extra });
}

export function createEventsHub(heartbeatMs: number, limits: Partial<LiveLimits> = {}) {
  const cfg: LiveLimits = { ...defaultLiveLimits, ...limits };
  const index = streamIndex(heartbeatMs);
  const { streams, byKey, bySession, byMember, remove } = index;
  const changes = recentChanges(cfg.recentChangeMs);

  const handler = (
    req: express.Request,
    res: express.Response,
    identity: { userId: string; sessionId: string; workspaceId?: string },
    /** keys the gateway adds itself (a display's own screen), not asked for in the query */
    ownKeys: string[] = [],
  ) => {
    const watches = parseWatches(req.query, cfg.maxWatches);
    if ('keys' in watches) watches.keys.push(...ownKeys);
    if ('issues' in watches) return refuse(res, 400, 'VALIDATION', { issues: watches.issues });
    if (streams.size >= cfg.maxStreams) return refuse(res, 503, 'SERVICE_UNAVAILABLE');
    const mine = bySession.get(identity.sessionId);
    const sessionFull = (mine?.size ?? 0) >= cfg.maxStreamsPerSession;
    // The session's own oldest stream makes room first; only what is still over the member's cap is refused.
    const memberCount = (byMember.get(identity.userId)?.size ?? 0) - (sessionFull ? 1 : 0);
    if (memberCount >= cfg.maxStreamsPerMember) return refuse(res, 429, 'RATE_LIMITED');
    if (mine && sessionFull) {
      const oldest = mine.values().next().value;
      if (oldest) {
        remove(oldest);
        oldest.res.end();
      }
    }
    openEventStream(req, res);
    const stream = newStream(res, identity, watches.keys, cfg.maxBufferedBytes, remove);
    index.add(stream);
    res.on('close', () => remove(stream));
    greet(stream, req, cfg.retryMs, (keys, now) => changes.changedRecently(keys, now, watches.since));
  };

  return {
    handler,
    /** Sends an event to the streams watching any of `keys` (each stream once). Returns how many got it. */
    forward(event: ForwardedEvent, keys: string[]): number {
      // remembered whether or not a stream watches it now: one may open in a moment (see recentChangeMs)
      changes.note(keys, Date.now());
      let targets: Set<Stream> | undefined;
      if (keys.length === 1) targets = byKey.get(keys[0] as string);
      else {
        targets = new Set();
        for (const key of keys) for (const s of byKey.get(key) ?? []) targets.add(s);
      }
      if (!targets || targets.size === 0) return 0;
      const chunk = `event: ${event.type}\nid: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`;
      // a copy: a write may close a stalled stream, which removes it from the set being walked
      const list = [...targets];
      for (const s of list) s.write(chunk);
      return list.length;
    },
    /** Sends an event to every open stream of one user. */
    publish(userId: string, event: string, data: unknown) {
      for (const s of [...(byMember.get(userId) ?? [])]) s.send(event, data);
    },
    /** Ends every stream matching `filter` (after a revocation, or all at shutdown). */
    end(filter: (c: EventClient) => boolean = () => true) {
      for (const s of [...streams]) {
        if (!filter(s)) continue;
        remove(s);
        s.res.end();
      }
    },
    get size() {
      return streams.size;
    },
    /** Ids changed within recentChangeMs, for tests. */
    get recentChanges() {
      return changes.size;
    },
    /** Distinct keys of one kind watched now (`owner`: the Screens pages open, one key per member). */
    watchedOfKind: index.watchedOfKind,
    /** Told each time a key starts or stops being watched (kind, keys of that kind now); returns the unsubscribe. */
    onWatchedKinds: index.onWatchedKinds,
    /** Distinct ids watched, for metrics and tests. */
    get watchedKeys() {
      return byKey.size;
    },
    limits: cfg,
  };
}

export type EventsHub = ReturnType<typeof createEventsHub>;
