import { type JetStreamClient, DeliverPolicy } from '@nats-io/jetstream';
import { parseEvent, subjects } from '@pagecast/contracts';
import { followStream, PULL_EXPIRES_MS } from '@pagecast/service-kit';
import type { Logger } from './log';

/** Revoked session ids, each kept for the token lifetime after its revocation (a token can live no longer). */
export class RevocationStore {
  private readonly until = new Map<string, number>();

  constructor(private readonly ttlMs: number) {}

  add(sessionId: string, revokedAtMs: number = Date.now()): void {
    // A minute of slack for clocks that disagree between account and gateway.
    const until = revokedAtMs + this.ttlMs + 60_000;
    if (until <= Date.now()) return;
    this.until.set(sessionId, Math.max(until, this.until.get(sessionId) ?? 0));
  }

  has(sessionId: string): boolean {
    const until = this.until.get(sessionId);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.until.delete(sessionId);
    return false;
  }

  prune(now = Date.now()): void {
    for (const [sid, until] of this.until) if (until <= now) this.until.delete(sid);
  }

  get size(): number {
    return this.until.size;
  }
}

type RawRevocation = {
  occurredAt?: unknown;
  data?: { sessionId?: unknown; deviceId?: unknown; revokedAt?: unknown };
} | null;

export interface RevocationFeed {
  /** Resolves when the backlog since (now − TTL) has been read, so no recent revocation is missed. */
  caughtUp: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Reads account.session.revoked.v1 from the ACCOUNT stream with an ordered (ephemeral) consumer that starts
 * at now − TTL: a gateway that starts late still knows every revocation whose tokens could still be alive.
 */
export function startRevocationFeed(opts: {
  js: JetStreamClient;
  store: RevocationStore;
  ttlSeconds: number;
  logger: Logger;
  stream?: string;
  /** the revocation subject and the data field naming what is revoked (screens: screen revoked, deviceId) */
  subject?: string;
  idField?: 'sessionId' | 'deviceId';
  onRevoked?: (sessionId: string) => void;
}): RevocationFeed {
  const { js, store, logger, ttlSeconds } = opts;
  const stream = opts.stream ?? 'ACCOUNT';
  const subject = opts.subject ?? subjects.sessionRevoked;
  const idField = opts.idField ?? 'sessionId';
  let current: { close(): Promise<unknown> } | undefined;
  let markCaughtUp!: () => void;
  const caughtUp = new Promise<void>((resolve) => {
    markCaughtUp = resolve;
  });
  const pruneTimer = setInterval(() => store.prune(), 60_000);
  pruneTimer.unref();

  const runOnce = async (live: () => void) => {
    const consumer = await js.consumers.get(stream, {
      filter_subjects: [subject],
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: new Date(Date.now() - ttlSeconds * 1000).toISOString(),
    });
    const info = await consumer.info(true);
    if (info.num_pending === 0) markCaughtUp();
    const messages = await consumer.consume({ expires: PULL_EXPIRES_MS });
    current = messages;
    live();
    for await (const m of messages) {
      let raw: RawRevocation | undefined;
      try {
        raw = m.json<RawRevocation>();
      } catch {
        raw = undefined;
      }
      let sessionId: unknown = raw?.data?.[idField];
      let at = Date.parse(String(raw?.data?.revokedAt ?? raw?.occurredAt ?? ''));
      try {
        const event = parseEvent(raw);
        if (event.type === subjects.sessionRevoked) sessionId = event.data.sessionId;
        else if (event.type === subjects.screenRevoked) sessionId = event.data.deviceId;
        else throw new Error(`${event.type} is not a revocation`);
        at = Date.parse(event.data.revokedAt);
      } catch (err) {
        // Fail closed: a revocation that names a session is honoured even if the rest of it is malformed.
        logger.warn({ err, subject: m.subject, seq: m.seq }, 'malformed revocation event');
      }
      if (typeof sessionId === 'string' && sessionId) {
        store.add(sessionId, Number.isFinite(at) ? at : Date.now());
        opts.onRevoked?.(sessionId);
      }
      if (m.info.pending === 0) markCaughtUp();
    }
  };

  const follower = followStream(runOnce, { name: 'revocation feed', waitingFor: `the ${stream} stream`, logger });

  return {
    caughtUp,
    async stop() {
      follower.stop();
      clearInterval(pruneTimer);
      await current?.close();
    },
  };
}
