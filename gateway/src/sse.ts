// A live stream on the wire (events.ts): the answer's head, the writer that closes a stalled client, the greeting.
import type express from 'express';
import type { Stream } from './stream-index';

export /** The answer's head: an event stream that no proxy buffers, on a socket that never times out. */
function openEventStream(req: express.Request, res: express.Response) {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no'); // nginx-style proxies must not buffer the stream
  res.flushHeaders();
  req.socket.setTimeout(0);
  req.socket.setNoDelay(true);
}

/** A stream's writer: a stream whose unsent bytes pass maxBufferedBytes is closed (a stalled client). */
export function newStream(
  res: express.Response,
  identity: { userId: string; sessionId: string; workspaceId?: string },
  keys: string[],
  maxBufferedBytes: number,
  remove: (s: Stream) => void,
): Stream {
  const stream: Stream = {
    userId: identity.userId,
    sessionId: identity.sessionId,
    ...(identity.workspaceId ? { workspaceId: identity.workspaceId } : {}),
    res,
    keys,
    write(chunk: string) {
      if (res.writableEnded) return;
      if (res.writableLength > maxBufferedBytes) {
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
  return stream;
}

export /** The greeting: the reconnect delay, `ready`, and a resync when the client's reads may have missed a change. */
function greet(
  stream: Stream,
  req: express.Request,
  retryMs: number,
  changedRecently: (keys: string[], now: number) => boolean,
) {
  const now = Date.now();
  stream.write(`retry: ${retryMs}\n\n`);
  // `ready` carries an id so that every reconnect sends Last-Event-ID and gets the resync below.
  stream.write(
    `event: ready\ndata: ${JSON.stringify({ userId: stream.userId, at: new Date(now).toISOString(), watching: stream.keys.length })}\nid: ready-${now}\n\n`,
  );
  // Nothing is kept to replay what was missed while disconnected: the client refetches once instead. A first
  // connect is told the same when what it watches changed just before: the client's reads may predate it, unless
  // it says (`since`: the server time of its first read) that they were all made after the change.
  const lastEventId = req.headers['last-event-id'] ?? req.query.lastEventId;
  if (typeof lastEventId === 'string' && lastEventId) {
    stream.send('resync', { reason: 'reconnected', lastEventId: lastEventId.slice(0, 100) });
  } else if (changedRecently(stream.keys, now)) {
    stream.send('resync', { reason: 'changed-before-open' });
  }
}
