// Server-sent events to signed-in browsers (GET /api/events). A stream says what it watches with the query
// parameters `playlist=<id>` and `file=<id>` (repeatable); live.ts feeds NATS events in through forward(), which
// finds the watching streams through one index (watch key → streams), O(1) per event and key.
//
// What goes out is only the fact of a change and ids, never content: the player refetches with its own session, so
// the gateway needs no access check here and a stream learns nothing it could not already read.
import { errorMessagesJa } from '@pagecast/contracts';
import type express from 'express';

export interface EventClient {
  userId: string;
  sessionId: string;
  send(event: string, data: unknown): void;
}

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

/**
 * How much older than a client's `since` a change must be for the client's reads to include it for sure: `since` is
 * the Date header of the client's first read (whole seconds, from the service that answered, after its read), and
 * the change's time is when this gateway heard of it.
 */
export const SINCE_SLACK_MS = 5000;

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

/** Index keys: what a stream watches, and what an event concerns. */
export const watchKey = {
  playlist: (id: string) => `playlist:${id}`,
  file: (id: string) => `file:${id}`,
  /** a paired display watches its own screen (screens.screen.changed.v1) */
  screen: (id: string) => `screen:${id}`,
};

interface Stream extends EventClient {
  res: express.Response;
  keys: string[];
  write(chunk: string): void;
}

const WATCH_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

function queryList(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The watch keys (and `since`, ms since 1970) of a request, or the issues that make it a 400. */
function parseWatches(
  query: express.Request['query'],
  max: number,
): { keys: string[]; since: number | undefined } | { issues: { path: string; message: string }[] } {
  const keys = new Set<string>();
  const issues: { path: string; message: string }[] = [];
  let since: number | undefined;
  if (query.since !== undefined) {
    since = typeof query.since === 'string' && /^\d{1,15}$/.test(query.since) ? Number(query.since) : undefined;
    if (since === undefined) issues.push({ path: 'since', message: '無効な時刻です' });
  }
  for (const kind of ['playlist', 'file'] as const) {
    for (const id of queryList(query[kind])) {
      if (typeof id === 'string' && WATCH_ID.test(id)) keys.add(watchKey[kind](id));
      else issues.push({ path: kind, message: '無効なIDです' });
    }
  }
  if (keys.size > max) issues.push({ path: 'playlist', message: `監視できるIDは${max}個までです` });
  return issues.length ? { issues } : { keys: [...keys], since };
}

export function createEventsHub(heartbeatMs: number, limits: Partial<LiveLimits> = {}) {
  const cfg: LiveLimits = { ...defaultLiveLimits, ...limits };
  const streams = new Set<Stream>();
  const byKey = new Map<string, Set<Stream>>();
  /** per session, oldest first (a Set keeps insertion order) */
  const bySession = new Map<string, Set<Stream>>();
  const byMember = new Map<string, Set<Stream>>();
  let heartbeat: NodeJS.Timeout | undefined;
  /** watch key -> when an event last concerned it, oldest first, only the last recentChangeMs (see LiveLimits) */
  const changedAt = new Map<string, number>();
  const forgetOldChanges = (now: number) => {
    for (const [key, at] of changedAt) {
      if (now - at <= cfg.recentChangeMs) break;
      changedAt.delete(key);
    }
  };
  const noteChanges = (keys: string[], now: number) => {
    for (const key of keys) {
      changedAt.delete(key); // re-inserted at the end: the map stays in time order
      changedAt.set(key, now);
    }
    forgetOldChanges(now);
  };
  /** A change to one of `keys` in the last recentChangeMs that reads made at `since` may not include. */
  const changedRecently = (keys: string[], now: number, since: number | undefined) =>
    keys.some((key) => {
      const at = changedAt.get(key);
      return at !== undefined && now - at <= cfg.recentChangeMs && (since === undefined || at > since - SINCE_SLACK_MS);
    });

  // One timer for every stream (a timer per stream would cost memory and wake-ups): proxies drop idle lines.
  const beat = () => {
    const line = `: heartbeat ${Date.now()}\n\n`;
    for (const s of streams) s.write(line);
  };

  const remove = (s: Stream) => {
    if (!streams.delete(s)) return;
    for (const key of s.keys) {
      const set = byKey.get(key);
      set?.delete(s);
      if (set?.size === 0) byKey.delete(key);
    }
    const mine = bySession.get(s.sessionId);
    mine?.delete(s);
    if (mine?.size === 0) bySession.delete(s.sessionId);
    const member = byMember.get(s.userId);
    member?.delete(s);
    if (member?.size === 0) byMember.delete(s.userId);
    if (streams.size === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = undefined;
    }
  };

  const handler = (
    req: express.Request,
    res: express.Response,
    identity: { userId: string; sessionId: string },
    /** keys the gateway adds itself (a display's own screen), not asked for in the query */
    ownKeys: string[] = [],
  ) => {
    const watches = parseWatches(req.query, cfg.maxWatches);
    if ('keys' in watches) watches.keys.push(...ownKeys);
    if ('issues' in watches) {
      res
        .status(400)
        .set('Cache-Control', 'no-store')
        .json({ code: 'VALIDATION', message: errorMessagesJa.VALIDATION, issues: watches.issues });
      return;
    }
    if (streams.size >= cfg.maxStreams) {
      res
        .status(503)
        .set({ 'Cache-Control': 'no-store', 'Retry-After': '30' })
        .json({ code: 'SERVICE_UNAVAILABLE', message: errorMessagesJa.SERVICE_UNAVAILABLE });
      return;
    }
    const mine = bySession.get(identity.sessionId);
    const sessionFull = (mine?.size ?? 0) >= cfg.maxStreamsPerSession;
    // The session's own oldest stream makes room first; only what is still over the member's cap is refused.
    const memberCount = (byMember.get(identity.userId)?.size ?? 0) - (sessionFull ? 1 : 0);
    if (memberCount >= cfg.maxStreamsPerMember) {
      res
        .status(429)
        .set({ 'Cache-Control': 'no-store', 'Retry-After': '30' })
        .json({ code: 'RATE_LIMITED', message: errorMessagesJa.RATE_LIMITED });
      return;
    }
    if (mine && sessionFull) {
      const oldest = mine.values().next().value;
      if (oldest) {
        remove(oldest);
        oldest.res.end();
      }
    }

    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    res.setHeader('X-Accel-Buffering', 'no'); // nginx-style proxies must not buffer the stream
    res.flushHeaders();
    req.socket.setTimeout(0);
    req.socket.setNoDelay(true);

    const stream: Stream = {
      userId: identity.userId,
      sessionId: identity.sessionId,
      res,
      keys: watches.keys,
      write(chunk: string) {
        if (res.writableEnded) return;
        if (res.writableLength > cfg.maxBufferedBytes) {
          remove(stream);
          res.end();
          return;
        }
        res.write(chunk);
      },
      send(event: string, data: unknown) {
        stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      },
    };
    streams.add(stream);
    for (const key of stream.keys) {
      let set = byKey.get(key);
      if (!set) {
        set = new Set();
        byKey.set(key, set);
      }
      set.add(stream);
    }
    let session = bySession.get(identity.sessionId);
    if (!session) {
      session = new Set();
      bySession.set(identity.sessionId, session);
    }
    session.add(stream);
    let member = byMember.get(identity.userId);
    if (!member) {
      member = new Set();
      byMember.set(identity.userId, member);
    }
    member.add(stream);
    heartbeat ??= setInterval(beat, heartbeatMs);
    heartbeat.unref();
    res.on('close', () => remove(stream));

    const now = Date.now();
    stream.write(`retry: ${cfg.retryMs}\n\n`);
    // `ready` carries an id so that every reconnect sends Last-Event-ID and gets the resync below.
    stream.write(
      `event: ready\ndata: ${JSON.stringify({ userId: identity.userId, at: new Date(now).toISOString(), watching: stream.keys.length })}\nid: ready-${now}\n\n`,
    );
    // Nothing is kept to replay what was missed while disconnected: the client refetches once instead. A first
    // connect is told the same when what it watches changed just before: the client's reads may predate it, unless
    // it says (`since`: the server time of its first read) that they were all made after the change.
    const lastEventId = req.headers['last-event-id'] ?? req.query.lastEventId;
    if (typeof lastEventId === 'string' && lastEventId) {
      stream.send('resync', { reason: 'reconnected', lastEventId: lastEventId.slice(0, 100) });
    } else if (changedRecently(stream.keys, now, watches.since)) {
      stream.send('resync', { reason: 'changed-before-open' });
    }
  };

  return {
    handler,
    /** Sends an event to the streams watching any of `keys` (each stream once). Returns how many got it. */
    forward(event: ForwardedEvent, keys: string[]): number {
      // remembered whether or not a stream watches it now: one may open in a moment (see recentChangeMs)
      noteChanges(keys, Date.now());
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
      forgetOldChanges(Date.now());
      return changedAt.size;
    },
    /** Distinct ids watched, for metrics and tests. */
    get watchedKeys() {
      return byKey.size;
    },
    limits: cfg,
  };
}

export type EventsHub = ReturnType<typeof createEventsHub>;
