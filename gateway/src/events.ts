import type express from 'express';

export interface EventClient {
  userId: string;
  sessionId: string;
  send(event: string, data: unknown): void;
}

/**
 * Server-sent events to signed-in browsers. For now it greets with `ready` and keeps the line open with a
 * comment heartbeat (proxies drop idle connections); publish() is where NATS-fed updates will go.
 */
export function createEventsHub(heartbeatMs: number) {
  const clients = new Set<EventClient & { res: express.Response }>();

  const handler = (req: express.Request, res: express.Response, identity: { userId: string; sessionId: string }) => {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    res.setHeader('X-Accel-Buffering', 'no'); // nginx-style proxies must not buffer the stream
    res.flushHeaders();
    req.socket.setTimeout(0);
    req.socket.setNoDelay(true);

    const client = {
      ...identity,
      res,
      send(event: string, data: unknown) {
        res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      },
    };
    clients.add(client);
    res.write(`retry: 5000\n\n`);
    client.send('ready', { userId: identity.userId, at: new Date().toISOString() });
    const beat = setInterval(() => res.write(`: heartbeat ${Date.now()}\n\n`), heartbeatMs);
    res.on('close', () => {
      clearInterval(beat);
      clients.delete(client);
    });
  };

  return {
    handler,
    /** Sends an event to every open stream of one user. */
    publish(userId: string, event: string, data: unknown) {
      for (const c of clients) if (c.userId === userId) c.send(event, data);
    },
    /** Ends every stream of a session (after a revocation or at shutdown). */
    end(filter: (c: EventClient) => boolean = () => true) {
      for (const c of clients) if (filter(c)) c.res.end();
    },
    get size() {
      return clients.size;
    },
  };
}

export type EventsHub = ReturnType<typeof createEventsHub>;
