// The open live streams (events.ts) and the indexes that find them: by watch key (what an event concerns), by
// session and by member (their caps), with the one heartbeat timer they share.
import type express from 'express';

export interface EventClient {
  userId: string;
  sessionId: string;
  /** the workspace the stream acts in when it is not the member's own (memberships.ts) */
  workspaceId?: string;
  send(event: string, data: unknown): void;
}

export interface Stream extends EventClient {
  res: express.Response;
  keys: string[];
  write(chunk: string): void;
}

export function streamIndex(heartbeatMs: number) {
  const streams = new Set<Stream>();
  const byKey = new Map<string, Set<Stream>>();
  /** per session, oldest first (a Set keeps insertion order) */
  const bySession = new Map<string, Set<Stream>>();
  const byMember = new Map<string, Set<Stream>>();
  let heartbeat: NodeJS.Timeout | undefined;
  /** distinct keys watched per kind (the text before the first ':'), and who is told when one comes or goes */
  const kinds = new Map<string, number>();
  const kindListeners = new Set<(kind: string, count: number) => void>();
  const kindOf = (key: string) => key.slice(0, Math.max(0, key.indexOf(':')));
  const countKind = (key: string, by: number) => {
    const kind = kindOf(key);
    const count = (kinds.get(kind) ?? 0) + by;
    if (count === 0) kinds.delete(kind);
    else kinds.set(kind, count);
    for (const l of kindListeners) l(kind, count);
  };

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
      if (set?.size === 0) {
        byKey.delete(key);
        countKind(key, -1);
      }
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

  const add = (stream: Stream) => {
    streams.add(stream);
    for (const key of stream.keys) {
      let set = byKey.get(key);
      if (!set) {
        set = new Set();
        byKey.set(key, set);
        countKind(key, 1);
      }
      set.add(stream);
    }
    let session = bySession.get(stream.sessionId);
    if (!session) {
      session = new Set();
      bySession.set(stream.sessionId, session);
    }
    session.add(stream);
    let member = byMember.get(stream.userId);
    if (!member) {
      member = new Set();
      byMember.set(stream.userId, member);
    }
    member.add(stream);
    heartbeat ??= setInterval(beat, heartbeatMs);
    heartbeat.unref();
  };

  return {
    streams,
    byKey,
    bySession,
    byMember,
    add,
    remove,
    /** Distinct keys of one kind watched now (`owner` for owner:<userId>). */
    watchedOfKind: (kind: string) => kinds.get(kind) ?? 0,
    /** Calls `listener(kind, count)` each time a key starts or stops being watched; returns the unsubscribe. */
    onWatchedKinds(listener: (kind: string, count: number) => void): () => void {
      kindListeners.add(listener);
      return () => kindListeners.delete(listener);
    },
  };
}
