import { type EventEnvelope, parseEvent, type Subject, streams as contractStreams } from '@pagecast/contracts';
import {
  AckPolicy,
  type ConsumerConfig,
  DeliverPolicy,
  type JetStreamClient,
  JetStreamApiError,
  type JetStreamManager,
  type JsMsg,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { connect, type NatsConnection, nanos } from '@nats-io/transport-node';
import type { pino } from 'pino';
import { DEFAULT_START_TIMEOUT_MS, type StartRetry, startRetry, untilReady } from './start-retry';

export type { JetStreamClient, JetStreamManager, NatsConnection };

export interface Nats {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  /** Copies of each stream and bucket this process creates (NATS_REPLICAS). */
  replicas: number;
  /** the service's logger (a start step's retries are logged with it) */
  logger?: pino.Logger;
}

const disconnected = new WeakSet<NatsConnection>();
/** The replica count of the connection a manager belongs to: streams are created through the manager alone. */
const replicasOf = new WeakMap<JetStreamManager, number>();

/**
 * Connects (reconnecting forever, to any server of the list: NATS_URL may name a cluster's servers separated by
 * commas), logs connection changes and returns the JetStream client and manager. `replicas` defaults to
 * NATS_REPLICAS, which the config schema has checked. With `retry` (a start-up), no server yet or JetStream not
 * answering yet (a cluster still electing its leader) is waited for (start-retry.ts), not a failed start.
 */
export async function connectNats(
  url: string,
  logger: pino.Logger,
  name: string,
  opts: { replicas?: number; retry?: StartRetry } = {},
): Promise<Nats> {
  const servers = url
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const replicas = opts.replicas ?? (Number(process.env.NATS_REPLICAS) || 1);
  const nc = await untilReady(
    'nats',
    () =>
      connect({
        servers,
        name,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 1000,
        timeout: 5000,
        // no error with a stack made ahead for every request and its timer, in case it fails (a display's every
        // socket call, key-value put and JetStream publish is one): about 6 % of the screens service's and the
        // gateway's CPU under the displays' load; a failed request's error still says what failed
        noAsyncTraces: true,
      }),
    opts.retry,
  );
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') {
        disconnected.add(nc);
        logger.warn({ server: s.server }, 'nats disconnected');
      } else if (s.type === 'reconnect') {
        disconnected.delete(nc);
        logger.info({ server: s.server }, 'nats reconnected');
      } else if (s.type === 'error') {
        logger.warn({ status: s }, 'nats error');
      }
    }
  })();
  const js = jetstream(nc);
  let jsm: JetStreamManager;
  try {
    jsm = await untilReady('nats jetstream', () => jetstreamManager(nc), opts.retry, permanentNatsError);
  } catch (err) {
    await nc.close().catch(() => undefined);
    throw err;
  }
  replicasOf.set(jsm, replicas);
  logger.info({ url, replicas }, 'nats connected');
  return { nc, js, jsm, replicas, logger };
}

/** Readiness: connected (not closed, draining or between reconnects). */
export function natsReady(nc: NatsConnection): boolean {
  return !nc.isClosed() && !nc.isDraining() && !disconnected.has(nc);
}

const API_STREAM_NOT_FOUND = 10059;
const API_STREAM_NAME_IN_USE = 10058;
const API_CONSUMER_NOT_FOUND = 10014;

function apiCode(err: unknown): number | undefined {
  return err instanceof JetStreamApiError ? err.code : undefined;
}

/**
 * JetStream answered with a refusal of the request itself (a missing stream, a bad config): waiting does not mend it.
 * Time-outs, no responders and 5xx answers (a cluster electing its leader: 10008) are waited for.
 */
export const permanentNatsError = (err: unknown) =>
  err instanceof JetStreamApiError && err.status >= 400 && err.status < 500;

export interface StreamDefinition {
  name: string;
  subjects: string[];
  retention: 'limits' | 'workqueue';
  duplicateWindowMs: number;
  /** how long a message is kept (JetStream's max_age) */
  maxAgeMs: number;
}

/**
 * Creates each stream or brings its subjects, duplicate window, age limit and replica count up to date, in place
 * (what it holds stays: JetStream copies a stream to new replicas itself); safe when services race at start.
 */
export async function ensureStreams(
  jsm: JetStreamManager,
  list: ReadonlyArray<StreamDefinition> = contractStreams,
): Promise<void> {
  const replicas = replicasOf.get(jsm) ?? 1;
  for (const def of list) {
    const wanted = {
      subjects: [...def.subjects],
      duplicate_window: nanos(def.duplicateWindowMs),
      max_age: nanos(def.maxAgeMs),
      num_replicas: replicas,
    };
    let info: Awaited<ReturnType<JetStreamManager['streams']['info']>> | undefined;
    try {
      info = await jsm.streams.info(def.name);
    } catch (err) {
      if (apiCode(err) !== API_STREAM_NOT_FOUND) throw err;
    }
    if (!info) {
      try {
        await jsm.streams.add({
          name: def.name,
          ...wanted,
          retention: def.retention === 'workqueue' ? RetentionPolicy.Workqueue : RetentionPolicy.Limits,
          storage: StorageType.File,
        });
        continue;
      } catch (err) {
        // Another service created it between our info and add: fall through to the update check.
        if (apiCode(err) !== API_STREAM_NAME_IN_USE) throw err;
        info = await jsm.streams.info(def.name);
      }
    }
    const same =
      [...info.config.subjects].sort().join(' ') === [...wanted.subjects].sort().join(' ') &&
      info.config.duplicate_window === wanted.duplicate_window &&
      info.config.max_age === wanted.max_age &&
      (info.config.num_replicas ?? 1) === wanted.num_replicas;
    if (!same) await jsm.streams.update(def.name, wanted);
  }
}

/**
 * How long each pull a consumer leaves open on the server lasts (nats.js defaults to 30 s, with heartbeats every
 * half of it). A pull the server ends with a status the client does not act on (a 409 other than a deleted consumer)
 * leaves the consumer waiting until two heartbeats are missed, so up to the whole pull time without a delivery. A
 * tier change once took over 20 s to reach the marketplace in a test run with no error anywhere; 5 s pulls bound such
 * a wait to 5 s, for a small request every 5 s per idle consumer.
 */
export const PULL_EXPIRES_MS = 5000;

export interface ConsumeOptions<S extends Subject> {
  stream: string;
  durable: string;
  subjects: S[];
  handler: (event: EventEnvelope<S>) => Promise<void>;
  logger: pino.Logger;
  /** Where a new durable starts; ignored when it exists. Default 'all'. */
  deliver?: 'all' | 'new';
  /** First redelivery delay after a failed handler; doubles per attempt up to 60 s. Default 1000 ms. */
  retryDelayMs?: number;
  /** Deliveries before a failing message is given up (terminated and logged). Default 50. */
  maxDeliver?: number;
  /** Redelivery if neither acked nor kept alive; long handlers are kept alive automatically. Default 30 s. */
  ackWaitMs?: number;
  /** How long the consumer's creation is tried again when JetStream does not answer (start-retry.ts). */
  setupTimeoutMs?: number;
  /**
   * Messages handed out and not yet acked, over all processes bound to the durable (JetStream's max_ack_pending).
   * 1: strictly one after the other in stream order, whatever the replicas (the audit log's chain). Unset: the server's.
   */
  maxAckPending?: number;
}

/**
 * Creates a durable consumer or brings its config up to date; safe when processes race. JetStream's answers are
 * waited for (a request that times out on a cluster just formed is tried again) up to `timeoutMs`.
 */
export async function ensureConsumer(
  jsm: JetStreamManager,
  stream: string,
  durable: string,
  config: Partial<ConsumerConfig>,
  opts: { logger: pino.Logger; deliver?: 'all' | 'new'; timeoutMs?: number },
): Promise<void> {
  const retry = startRetry(opts.logger, opts.timeoutMs ?? DEFAULT_START_TIMEOUT_MS);
  await untilReady(
    `nats consumer ${stream}/${durable}`,
    async () => {
      try {
        await jsm.consumers.info(stream, durable);
        await jsm.consumers.update(stream, durable, config);
        return;
      } catch (err) {
        if (apiCode(err) !== API_CONSUMER_NOT_FOUND) throw err;
      }
      try {
        await jsm.consumers.add(stream, {
          ...config,
          durable_name: durable,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: opts.deliver === 'new' ? DeliverPolicy.New : DeliverPolicy.All,
        });
      } catch (addErr) {
        // another process created it meanwhile
        await jsm.consumers.info(stream, durable).catch(() => {
          throw addErr;
        });
      }
    },
    retry,
    permanentNatsError,
  );
}

/**
 * A durable pull consumer with explicit acks. Each message is parsed with the contracts (bad ones are logged and
 * terminated so they do not loop), handed to `handler`, and acked after it returns; a throw naks with a growing
 * delay. Messages are handled one at a time, in order.
 */
export function consume<S extends Subject>(
  js: JetStreamClient,
  opts: ConsumeOptions<S>,
): Promise<{ stop(): Promise<void> }> {
  const subjects = [...opts.subjects] as string[];
  return consumeDurable(js, opts, subjects, (m, log) => {
    let event: EventEnvelope<S>;
    try {
      const parsed = parseEvent(m.json());
      if (parsed.type !== m.subject || !subjects.includes(parsed.type)) {
        throw new Error(`event type ${parsed.type} does not match subject ${m.subject}`);
      }
      event = parsed as EventEnvelope<S>;
    } catch (err) {
      log.error({ err, subject: m.subject, seq: m.seq }, 'bad message terminated');
      m.term('bad message');
      return undefined;
    }
    return { run: () => opts.handler(event), fields: { eventId: event.id, type: event.type } };
  });
}

/**
 * A durable pull consumer of raw messages (not event envelopes: the alert feed's XML), with the same acks,
 * redelivery and give-up as `consume`; `handler` gets the bytes and the message's id header.
 */
export function consumeRaw(
  js: JetStreamClient,
  opts: Omit<ConsumeOptions<never>, 'subjects' | 'handler'> & {
    subjects: string[];
    handler: (data: Uint8Array, meta: { msgId: string | undefined; seq: number }) => Promise<void>;
  },
): Promise<{ stop(): Promise<void> }> {
  return consumeDurable(js, opts, opts.subjects, (m) => ({
    run: () => opts.handler(m.data, { msgId: m.headers?.get('Nats-Msg-Id') || undefined, seq: m.seq }),
    fields: { seq: m.seq },
  }));
}

/**
 * What `consume` and `consumeRaw` share: the durable made (or bound) once JetStream answers, then each message's
 * work (undefined: the message was dealt with, e.g. terminated) run with the ack kept alive, acked, or naked with a
 * growing delay until `maxDeliver`.
 */
async function consumeDurable(
  js: JetStreamClient,
  opts: Omit<ConsumeOptions<never>, 'subjects' | 'handler'>,
  subjects: string[],
  work: (m: JsMsg, log: pino.Logger) => { run(): Promise<void>; fields: Record<string, unknown> } | undefined,
): Promise<{ stop(): Promise<void> }> {
  const { stream, durable, logger } = opts;
  const ackWaitMs = opts.ackWaitMs ?? 30_000;
  const retryDelayMs = opts.retryDelayMs ?? 1000;
  const maxDeliver = opts.maxDeliver ?? 50;
  const log = logger.child({ stream, durable });
  const setup = startRetry(log, opts.setupTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
  const jsm = await untilReady('nats jetstream', () => js.jetstreamManager(), setup, permanentNatsError);
  const config = {
    filter_subjects: subjects,
    ack_wait: nanos(ackWaitMs),
    max_deliver: maxDeliver,
    ...(opts.maxAckPending ? { max_ack_pending: opts.maxAckPending } : {}),
  };
  await ensureConsumer(jsm, stream, durable, config, {
    logger: log,
    deliver: opts.deliver,
    timeoutMs: Math.max(0, setup.timeoutMs - (Date.now() - setup.startedAt)),
  });
  const consumer = await untilReady(
    `nats consumer ${stream}/${durable}`,
    () => js.consumers.get(stream, durable),
    setup,
    permanentNatsError,
  );
  const messages = await consumer.consume({ max_messages: 16, expires: PULL_EXPIRES_MS });

  const handle = async (m: JsMsg) => {
    const job = work(m, log);
    if (!job) return;
    // Long handlers (a conversion) keep the message from being redelivered while they work.
    const keepAlive = setInterval(() => m.working(), Math.max(1000, ackWaitMs / 2));
    try {
      await job.run();
      clearInterval(keepAlive);
      m.ack();
    } catch (err) {
      clearInterval(keepAlive);
      const attempt = m.info.deliveryCount;
      if (attempt >= maxDeliver) {
        log.error({ err, ...job.fields, attempt }, 'handler failed; giving up on the message');
        m.term('handler failed too often');
        return;
      }
      const delay = Math.min(retryDelayMs * 2 ** (attempt - 1), 60_000);
      log.warn({ err, ...job.fields, attempt, delay }, 'handler failed; will retry');
      m.nak(delay);
    }
  };

  const loop = (async () => {
    for await (const m of messages) await handle(m);
  })().catch((err) => log.error({ err }, 'consumer loop ended with an error'));

  log.info({ subjects }, 'consuming');
  return {
    async stop() {
      await messages.close();
      await loop;
    },
  };
}

/**
 * A JetStream key-value bucket (created if missing, bound if it exists): for soft state written far more often than
 * a database should be (a display's heartbeat), one value per key, kept `ttlMs` after its last write.
 */
export async function openKeyValue(
  nats: Nats,
  bucket: string,
  opts: { ttlMs: number; timeoutMs?: number },
): Promise<KV> {
  const create = () => new Kvm(nats.js).create(bucket, { history: 1, ttl: opts.ttlMs, replicas: nats.replicas ?? 1 });
  // JetStream not answering yet (a start beside a cluster just formed) is waited for
  return untilReady(
    `nats bucket ${bucket}`,
    create,
    nats.logger ? startRetry(nats.logger, opts.timeoutMs ?? DEFAULT_START_TIMEOUT_MS) : undefined,
    permanentNatsError,
  );
}
export type { KV };
