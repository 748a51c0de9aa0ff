import { DEVICE_TOKEN_TTL_SECONDS, SESSION_TOKEN_TTL_SECONDS } from '@pagecast/contracts';
import {
  connectNats,
  createHttpApp,
  createLogger,
  type DeviceRpcClient,
  deviceRpcClient,
  ensureStreams,
  type Listening,
  listen,
} from '@pagecast/service-kit';
import type { RequestListener } from 'node:http';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import express from 'express';
import proxyaddr from 'proxy-addr';
import { Counter, Gauge, Histogram } from 'prom-client';
import { mountApi, serviceTargets } from './api-routes';
import type { GatewayConfig } from './config';
import { createDeviceVerifier } from './device';
import { createDeviceHeaders } from './device-headers';
import { createDeviceSockets, type DeviceSockets } from './device-socket';
import { createEventsHub, type LiveLimits } from './events';
import { type Feeds, startFeeds } from './feeds';
import { callerIdentifier, dropClientIdentity, identifyCallers, sessionOf } from './identify';
import { liveLimitsFromEnv } from './live';
import type { Logger } from './log';
import type { MediaServer } from './media';
import { createVideoServer, type VideoServer } from './media-video';
import { MembershipStore } from './memberships';
import { pageImages } from './page-images';
import type { StatusFeed } from './screen-status-feed';
import { createServiceProxy } from './proxy';
import { foreignOrigins, resolveRemotes } from './remotes';
import { RevocationStore } from './revocations';
import { sameOriginOnly } from './same-origin';
import { rateLimits, securityHeaders, trustProxyValue } from './security';
import { createSessionVerifier } from './session';
import { mountFrontEnd } from './static';

// The gateway put together. Who is calling: identify.ts; the /api answers and the forwarding: api-routes.ts; page
// images: page-images.ts and media.ts; what it reads from NATS: feeds.ts.

export interface Gateway {
  app: express.Express;
  /**
   * Connects NATS, reads recent revocations, then listens: the public port (the app) and the internal one (/healthz,
   * /readyz, /metrics). Port 0 picks a free port.
   */
  start(port?: number, internalPort?: number): Promise<{ port: number; url: string; internalUrl: string }>;
  close(): Promise<void>;
  /** For tests and future feeds: the revocation set and the live-update hub. */
  revocations: RevocationStore;
  /** revoked paired displays (by deviceId) */
  deviceRevocations: RevocationStore;
  events: ReturnType<typeof createEventsHub>;
  /** page images served by the gateway itself (media.ts): its caches and upstream call counts */
  media: MediaServer;
  /** videos read from storage by the gateway itself (media-video.ts): its decisions and call counts */
  videos: VideoServer;
  /** the screens' status feed (screen-status-feed.ts), once started */
  readonly statusFeed: StatusFeed | undefined;
  /** the paired displays' sockets (device-socket.ts) */
  sockets: DeviceSockets;
  /** workspace memberships watched from account's bucket (memberships.ts) */
  memberships: MembershipStore;
}

/** The internal listener: probes and metrics only, never the public's to read. */
async function listenInternal(
  probes: express.RequestHandler,
  port: number,
  host: string,
  sockets: DeviceSockets,
): Promise<Listening> {
  const internalApp = express();
  internalApp.disable('x-powered-by');
  internalApp.use(probes);
  internalApp.get('/debug/settled-memory', settledMemory(sockets));
  return listen(internalApp, port, host);
}

/**
 * GET /debug/settled-memory (internal listener): the process's memory as it was (`before`) and after two full
 * collections (`after`), and the displays' sockets held, for the load's memory per display (docs/scale.md "Memory per display"): what is held, without the
 * garbage of the moment. Served only by a gateway started with `--expose-gc` (the load starts it so): a full
 * collection pauses every socket, so an ordinary start has no route to it (404).
 */
export function settledMemory(sockets: Pick<DeviceSockets, 'size'>): express.RequestHandler {
  return (_req, res, next) => {
    const collect = (globalThis as { gc?: () => void }).gc;
    if (typeof collect !== 'function') return next();
    // the V8 heap as resident pages (its committed size can be larger), beside what is outside it (buffers, native)
    const usage = () => {
      const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
      const heapResident = getHeapStatistics().total_physical_size;
      return { rss, heapUsed, heapTotal, heapResident, external, arrayBuffers };
    };
    const before = usage();
    collect();
    collect();
    // each V8 space's resident and used bytes after the collection: which space keeps pages it does not use
    const spaces = Object.fromEntries(
      getHeapSpaceStatistics().map((sp) => [
        sp.space_name,
        { resident: sp.physical_space_size, used: sp.space_used_size },
      ]),
    );
    res.json({ before, after: usage(), spaces, deviceSockets: sockets.size });
  };
}

/** The public listener: page images first (media.ts), then the app. */
function listenPublic(
  handler: RequestListener,
  port: number,
  config: GatewayConfig,
  sockets: DeviceSockets,
): Promise<Listening> {
  // every socket ends on close: live streams never become idle; the displays' WebSockets are upgraded here
  return listen(
    handler,
    port,
    config.HOST,
    { headersTimeoutMs: config.HEADERS_TIMEOUT_MS, requestTimeoutMs: config.REQUEST_TIMEOUT_MS },
    {
      endAllOnClose: true,
      backlog: config.LISTEN_BACKLOG,
      onUpgrade: (req, socket, head) => {
        if (!sockets.upgrade(req, socket, head)) socket.destroy();
      },
    },
  );
}

/**
 * The kit's app parses JSON bodies for services; the gateway must stream every body to the service untouched
 * (a parsed body is gone from the stream and the proxied request would hang), so that layer is taken out.
 */
export function createGateway(
  config: GatewayConfig,
  opts: { logger?: Logger; live?: Partial<LiveLimits>; statusLingerMs?: number } = {},
): Gateway {
  const logger = opts.logger ?? createLogger('gateway', config.LOG_LEVEL);
  const https = config.PUBLIC_URL?.startsWith('https:') ?? false;
  const remotes = resolveRemotes(config.REMOTES);
  const revocations = new RevocationStore(SESSION_TOKEN_TTL_SECONDS * 1000);
  const memberships = new MembershipStore();
  const verifier = createSessionVerifier({
    jwksUrl: config.JWKS_URL,
    accountUrl: config.ACCOUNT_URL,
    internalSecret: config.INTERNAL_SECRET,
    revocations,
    logger,
  });
  const deviceRevocations = new RevocationStore(DEVICE_TOKEN_TTL_SECONDS * 1000);
  const devices = createDeviceVerifier({ jwksUrl: config.SCREENS_JWKS_URL, revocations: deviceRevocations, logger });
  const { identify, clearCookie } = callerIdentifier({ verifier, devices, https });
  // a display's identity header, signed once per 10 s (device-headers.ts), for its HTTP calls and its socket's
  const deviceHeader = createDeviceHeaders(config.INTERNAL_SECRET);
  let rpc: DeviceRpcClient | undefined;
  let reads: DeviceRpcClient | undefined;
  const sockets = createDeviceSockets({
    devices,
    revocations: deviceRevocations,
    deviceHeader,
    rpc: () => rpc,
    reads: () => reads,
    logger,
    publicUrl: config.PUBLIC_URL,
    windowMs: config.RATE_LIMIT_WINDOW_MS,
    maxCalls: config.RATE_LIMIT_API_MAX,
    // the address express gives the HTTP path (its TRUST_PROXY rule), read when a display asks to upgrade
    clientAddress: (req) => proxyaddr(req, app.get('trust proxy fn')),
    onCall: (type, status, seconds) => socketCalls.observe({ type, status: String(status) }, seconds),
    onRefused: (code) => socketRefusals.inc({ code }),
  });
  const proxy = createServiceProxy({
    targets: serviceTargets(config),
    timeoutMs: config.PROXY_TIMEOUT_MS,
    logger,
    internalSecret: config.INTERNAL_SECRET,
  });
  const videos = createVideoServer({
    filesUrl: config.FILES_URL,
    accessEntries: config.MEDIA_ACCESS_ENTRIES,
    accessMaxMs: config.MEDIA_ACCESS_MAX_MS,
    timeoutMs: config.PROXY_TIMEOUT_MS,
    cacheDir: config.VIDEO_CACHE_DIR,
    cacheMaxBytes: config.VIDEO_CACHE_BYTES,
    logger,
  });
  const events = createEventsHub(config.SSE_HEARTBEAT_MS, { ...liveLimitsFromEnv(), ...opts.live });
  const limits = rateLimits({
    windowMs: config.RATE_LIMIT_WINDOW_MS,
    authMax: config.RATE_LIMIT_AUTH_MAX,
    apiMax: config.RATE_LIMIT_API_MAX,
  });

  let nats: Awaited<ReturnType<typeof connectNats>> | undefined;
  let feeds: Feeds | undefined;
  let server: Listening | undefined;
  let internal: Listening | undefined;

  const ready = async () =>
    Boolean(nats && !nats.nc.isClosed() && !nats.nc.isDraining()) && (await verifier.jwksReachable());
  // Probes and metrics live on the internal listener only: the public must not read metrics or readiness.
  const { app, probes, finish, registry } = createHttpApp({
    name: 'gateway',
    logger,
    ready,
    json: false,
    probes: false,
    bodyIdleTimeoutMs: config.BODY_IDLE_TIMEOUT_MS,
    // A paired display's call (its device token verified, identify.ts) is logged only when failed or slow.
    isDeviceCall: (_req, res) => sessionOf(res).device !== undefined,
    slowDeviceMs: config.LOG_SLOW_DEVICE_MS,
  });
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxyValue(config.TRUST_PROXY));
  // the displays' sockets (device-socket.ts): how many are open, and each relayed call's time to its answer
  new Gauge({
    name: 'gateway_device_sockets',
    help: "Paired displays' sockets open on this gateway",
    registers: [registry],
    collect() {
      this.set(sockets.size);
    },
  });
  // the edge cache of videos (video-cache.ts): its bytes on disk, and what it did since the start
  new Gauge({
    name: 'gateway_video_cache_bytes',
    help: 'Bytes of the local copies of videos this gateway holds',
    registers: [registry],
    collect() {
      this.set(videos.cache.stats.bytes);
    },
  });
  new Gauge({
    name: 'gateway_video_cache_events',
    help: 'Since the start: video reads served from a local copy (hit), copies begun (fill), made (filled), failed, removed for room (evicted)',
    labelNames: ['event'],
    registers: [registry],
    collect() {
      const { hits, fills, filled, failed, evicted } = videos.cache.stats;
      for (const [event, n] of Object.entries({ hit: hits, fill: fills, filled, failed, evicted }))
        this.set({ event }, n);
    },
  });
  const socketRefusals = new Counter({
    name: 'gateway_device_socket_refused_total',
    help: "A display's socket upgrade refused, by the code answered (RATE_LIMITED, CROSS_SITE_REQUEST, UNAUTHORIZED, SERVICE_UNAVAILABLE)",
    labelNames: ['code'],
    registers: [registry],
  });
  const socketCalls = new Histogram({
    name: 'gateway_device_socket_call_seconds',
    help: "A display's call over its socket, relayed to the screens service, until its answer",
    labelNames: ['type', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });

  app.use(dropClientIdentity);
  const security = securityHeaders({
    remoteOrigins: foreignOrigins(remotes),
    https,
    stripeJsUrl: config.STRIPE_JS_URL,
  });
  app.use(security);
  // A state-changing request made by another site's page is refused before any session is read (same-origin.ts),
  // and before the rate limits: such a page must not spend its visitor's address's allowance either.
  app.use(sameOriginOnly({ publicUrl: config.PUBLIC_URL }));
  app.use(limits.api, limits.auth);

  // A browser navigation after some unauthorized errors (spec point 2): the login screen lives in the shell.
  app.get('/api/login', (_req, res) => res.redirect(302, '/login'));

  app.use(identifyCallers(identify));
  app.use(limits.device);
  mountApi(app, {
    events,
    proxy,
    internalSecret: config.INTERNAL_SECRET,
    clearCookie,
    deviceHeader,
    manifestVersion: (screenId) => sockets.versionOf(screenId),
    manifestFor: (screenId, deviceId) => sockets.manifestFor(screenId, deviceId),
    memberships,
    secureCookies: https,
    videos,
  });

  // Front end: the remotes' builds, their manifest URLs, and the shell with its SPA fallback.
  mountFrontEnd(app, remotes, { staticDir: config.STATIC_DIR, remotesDir: config.REMOTES_DIR });
  finish();

  // Page images: answered by the gateway itself, before express (media.ts says why and how).
  const media = pageImages(config, {
    identify,
    security,
    registry,
    logger,
    memberships,
    deviceReads: () => reads,
    deviceHeader: (device) => deviceHeader(device),
  });
  const handler: RequestListener = (req, res) => {
    if (!media.handle(req, res)) app(req, res);
  };

  return {
    app,
    revocations,
    deviceRevocations,
    events,
    media,
    videos,
    sockets,
    memberships,
    get statusFeed() {
      return feeds?.statusFeed;
    },
    async start(port = config.PORT, internalPort = config.INTERNAL_PORT) {
      nats = await connectNats(config.NATS_URL, logger, 'gateway');
      await ensureStreams(nats.jsm);
      rpc = deviceRpcClient(nats.nc, {
        prefix: config.DEVICE_RPC_SUBJECT_PREFIX,
        batchMs: config.DEVICE_RPC_BATCH_MS,
      });
      reads = deviceRpcClient(nats.nc, {
        prefix: config.DEVICE_READ_SUBJECT_PREFIX,
        batchMs: config.DEVICE_RPC_BATCH_MS,
      });
      feeds = startFeeds({
        sockets,
        nats,
        revocations,
        deviceRevocations,
        events,
        media,
        videos,
        memberships,
        logger,
        statusLingerMs: opts.statusLingerMs,
      });
      // Serve nothing before the recent revocations are known and the live feed is in place (bounded wait: a slow
      // NATS must not block forever).
      const caughtUp = await feeds.caughtUp;
      if (!caughtUp) logger.warn('revocation backlog, memberships or live feed not ready within 10 s; continuing');
      internal = await listenInternal(probes, internalPort, config.INTERNAL_HOST, sockets);
      server = await listenPublic(handler, port, config, sockets);
      const actual = server.port;
      logger.info({ host: config.HOST, port: actual, internalPort: internal.port }, 'gateway listening');
      return { port: actual, url: `http://127.0.0.1:${actual}`, internalUrl: internal.url };
    },
    async close() {
      events.end();
      sockets.closeAll();
      await server?.close();
      await internal?.close();
      await feeds?.stop();
      videos.close();
      if (nats && !nats.nc.isClosed()) await nats.nc.close();
    },
  };
}
