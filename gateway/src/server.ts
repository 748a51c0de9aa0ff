import {
  DEVICE_COOKIE,
  DEVICE_TOKEN_TTL_SECONDS,
  errorMessagesJa,
  findRoute,
  IDENTITY_HEADER,
  SESSION_COOKIE,
  SESSION_TOKEN_TTL_SECONDS,
  type ServiceName,
  serviceForPath,
  subjects,
} from '@pagecast/contracts';
import {
  connectNats,
  createHttpApp,
  createLogger,
  ensureStreams,
  type Listening,
  listen,
  signDeviceIdentityHeader,
  signIdentityHeader,
} from '@pagecast/service-kit';
import type { IncomingMessage, RequestListener } from 'node:http';
import compression from 'compression';
import express from 'express';
import type { GatewayConfig } from './config';
import type { Logger } from './log';
import { readCookie, serializeCookie } from './cookies';
import { createDeviceVerifier, type DeviceIdentity } from './device';
import { docsPage, documentedServices } from './docs';
import { createEventsHub, type LiveLimits, watchKey } from './events';
import { type LiveFeed, liveLimitsFromEnv, startLiveFeed } from './live';
import { type CallerOutcome, createMediaServer, type MediaServer } from './media';
import { createServiceProxy } from './proxy';
import { foreignOrigins, resolveRemotes } from './remotes';
import { type RevocationFeed, RevocationStore, startRevocationFeed } from './revocations';
import { sameOriginOnly } from './same-origin';
import { rateLimits, securityHeaders, trustProxyValue } from './security';
import { createSessionVerifier, type SessionIdentity } from './session';
import { remotesRouter, shellRouter } from './static';

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
}

interface SessionLocals {
  identity?: SessionIdentity;
  sessionUnavailable?: boolean;
  /** a paired display, when there is no member session */
  device?: DeviceIdentity;
  deviceUnavailable?: boolean;
}

const sessionOf = (res: express.Response): SessionLocals => res.locals as SessionLocals;

/**
 * The headers a middleware such as helmet sets on every answer, read once: it sets the same ones whatever the
 * request (no nonces), so the page-image answers written outside express carry them precomputed.
 */
function headersSetBy(middleware: express.RequestHandler): Array<[string, string]> {
  const headers = new Map<string, string>();
  const res = {
    setHeader(name: string, value: unknown) {
      headers.set(name.toLowerCase(), String(value));
      return res;
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
    getHeader: (name: string) => headers.get(name.toLowerCase()),
  };
  let called = false;
  middleware({ headers: {}, method: 'GET', url: '/' } as express.Request, res as unknown as express.Response, () => {
    called = true;
  });
  if (!called) throw new Error('the security headers middleware did not finish synchronously');
  return [...headers];
}

function sendError(
  res: express.Response,
  status: number,
  code: 'NOT_FOUND' | 'SERVICE_UNAVAILABLE' | 'DEVICE_NOT_ALLOWED',
) {
  res.status(status).set('Cache-Control', 'no-store').json({ code, message: errorMessagesJa[code] });
}

function sendUnauthorized(res: express.Response) {
  // Exactly this body: the spec's client looks for "401" and "Unauthorized".
  res.status(401).set('Cache-Control', 'no-store').json({ code: 'UNAUTHORIZED', message: 'Unauthorized' });
}

/**
 * The kit's app parses JSON bodies for services; the gateway must stream every body to the service untouched
 * (a parsed body is gone from the stream and the proxied request would hang), so that layer is taken out.
 */
export function createGateway(
  config: GatewayConfig,
  opts: { logger?: Logger; live?: Partial<LiveLimits> } = {},
): Gateway {
  const logger = opts.logger ?? createLogger('gateway', config.LOG_LEVEL);
  const https = config.PUBLIC_URL?.startsWith('https:') ?? false;
  const remotes = resolveRemotes(config.REMOTES);
  const revocations = new RevocationStore(SESSION_TOKEN_TTL_SECONDS * 1000);
  const verifier = createSessionVerifier({
    jwksUrl: config.JWKS_URL,
    accountUrl: config.ACCOUNT_URL,
    internalSecret: config.INTERNAL_SECRET,
    revocations,
    logger,
  });
  const deviceRevocations = new RevocationStore(DEVICE_TOKEN_TTL_SECONDS * 1000);
  const devices = createDeviceVerifier({ jwksUrl: config.SCREENS_JWKS_URL, revocations: deviceRevocations, logger });
  const targets: Record<ServiceName, string> = {
    account: config.ACCOUNT_URL,
    'file-conversion': config.FILES_URL,
    marketplace: config.MARKETPLACE_URL,
    billing: config.BILLING_URL,
    screens: config.SCREENS_URL,
  };
  const proxy = createServiceProxy({ targets, timeoutMs: config.PROXY_TIMEOUT_MS, logger });
  const events = createEventsHub(config.SSE_HEARTBEAT_MS, { ...liveLimitsFromEnv(), ...opts.live });
  const limits = rateLimits({
    windowMs: config.RATE_LIMIT_WINDOW_MS,
    authMax: config.RATE_LIMIT_AUTH_MAX,
    apiMax: config.RATE_LIMIT_API_MAX,
  });
  const cookie = (value: string, maxAge: number | undefined) =>
    serializeCookie(SESSION_COOKIE, value, { secure: https, maxAge });
  const clearCookie = cookie('', 0);
  const clearDeviceCookie = serializeCookie(DEVICE_COOKIE, '', { secure: https, maxAge: 0 });

  let nats: Awaited<ReturnType<typeof connectNats>> | undefined;
  let feed: RevocationFeed | undefined;
  let deviceFeed: RevocationFeed | undefined;
  let live: LiveFeed | undefined;
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
  });
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxyValue(config.TRUST_PROXY));

  // Only the gateway may set the identity header: whatever a client sends is dropped before anything else.
  app.use((req, res, next) => {
    delete req.headers[IDENTITY_HEADER];
    const requestId = res.getHeader('x-request-id');
    if (typeof requestId === 'string') req.headers['x-request-id'] = requestId;
    next();
  });
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

  /**
   * Who is calling: the member of a session verified locally against account's keys (refreshed once when expired;
   * revoked → anonymous), else a paired display by its own credential. Also the cookies to set or clear.
   */
  const identify = async (req: IncomingMessage): Promise<SessionLocals & { cookies: string[] }> => {
    const out: SessionLocals & { cookies: string[] } = { cookies: [] };
    const outcome = await verifier.check(readCookie(req.headers, SESSION_COOKIE));
    if (outcome.kind === 'valid') out.identity = outcome.identity;
    else if (outcome.kind === 'refreshed') {
      out.identity = outcome.identity;
      out.cookies.push(cookie(outcome.token, outcome.maxAgeSeconds));
    } else if (outcome.kind === 'invalid') out.cookies.push(clearCookie);
    else if (outcome.kind === 'unavailable') out.sessionUnavailable = true;
    // A paired display (screens): its own credential, used only when no member is signed in on this browser.
    if (!out.identity) {
      const device = await devices.check(readCookie(req.headers, DEVICE_COOKIE));
      if (device.kind === 'valid') out.device = device.device;
      else if (device.kind === 'invalid') out.cookies.push(clearDeviceCookie);
      else if (device.kind === 'unavailable') out.deviceUnavailable = true;
    }
    return out;
  };

  app.use(async (req, res, next) => {
    if (!/^\/(api|media)(\/|$)/.test(req.path)) return next();
    const { cookies, ...who } = await identify(req);
    Object.assign(sessionOf(res), who);
    for (const c of cookies) res.append('Set-Cookie', c);
    next();
  });
  app.use(limits.device);

  const requireSession: express.RequestHandler = (_req, res, next) => {
    const locals = sessionOf(res);
    if (locals.identity) return next();
    if (locals.sessionUnavailable) return sendError(res, 503, 'SERVICE_UNAVAILABLE');
    sendUnauthorized(res);
  };

  app.get('/api/docs', compression(), (_req, res) => {
    res.type('html').set('Cache-Control', 'no-cache').send(docsPage());
  });
  app.get('/api/docs/:service/openapi.json', (req, res) => {
    const service = documentedServices.find((s) => s === req.params.service);
    if (!service) return sendError(res, 404, 'NOT_FOUND');
    req.url = '/openapi.json';
    return proxy(service, req, res);
  });
  app.get('/api/events', (req, res) => {
    const { identity, device } = sessionOf(res);
    if (!identity && device) {
      // A display's stream: its own screen's changes, plus the playlists and files it asks to watch.
      const client = { userId: `screen:${device.screenId}`, sessionId: `device:${device.deviceId}` };
      return events.handler(req, res, client, [watchKey.screen(device.screenId)]);
    }
    requireSession(req, res, () => events.handler(req, res, identity as SessionIdentity));
  });

  // Everything else under /api and /media goes to the service that owns it, per the contracts' route table.
  app.use((req, res, next) => {
    const path = req.path;
    const isApi = path === '/api' || path.startsWith('/api/');
    const isMedia = path.startsWith('/media/');
    if (!isApi && !isMedia) return next();
    const route = findRoute(req.method, path);
    // Page image keys may hold slashes the route table's '/media/:key' does not: the prefix decides then.
    const service = route?.service ?? (isMedia ? serviceForPath(path) : undefined);
    const auth = route?.auth ?? 'optional';
    if (!service) return sendError(res, 404, 'NOT_FOUND');
    const locals = sessionOf(res);
    // A display's credential never stands in for a member, and only a display may call the device routes.
    if (auth === 'session' && !locals.identity && locals.device) return sendError(res, 403, 'DEVICE_NOT_ALLOWED');
    if (auth === 'session' && !locals.identity) return requireSession(req, res, next);
    if (auth === 'device' && !locals.device) {
      return locals.deviceUnavailable ? sendError(res, 503, 'SERVICE_UNAVAILABLE') : sendUnauthorized(res);
    }
    if (locals.identity) req.headers[IDENTITY_HEADER] = signIdentityHeader(locals.identity, config.INTERNAL_SECRET);
    else if (locals.device) {
      req.headers[IDENTITY_HEADER] = signDeviceIdentityHeader(locals.device, config.INTERNAL_SECRET);
    }
    // Account clears the cookie on logout; the gateway does too, so a logout always logs out.
    if (path === '/api/logout') res.setHeader('Set-Cookie', [clearCookie]);
    return proxy(service, req, res);
  });

  // Front end: the remotes' builds, their manifest URLs, and the shell with its SPA fallback.
  app.use(compression());
  app.get('/remotes.json', (_req, res) => {
    res.set('Cache-Control', 'no-cache').json(remotes);
  });
  app.use(remotesRouter(config.REMOTES_DIR));
  app.use(shellRouter(config.STATIC_DIR, { playerManifest: remotes.mf_player, remotesDir: config.REMOTES_DIR }));
  finish();

  // Page images: answered by the gateway itself, before express (media.ts says why and how).
  const requestDuration = registry.getSingleMetric('http_request_duration_seconds') as
    | { observe(labels: Record<string, string>, seconds: number): void }
    | undefined;
  const media = createMediaServer({
    filesUrl: config.FILES_URL,
    internalSecret: config.INTERNAL_SECRET,
    cacheBytes: config.MEDIA_CACHE_BYTES,
    accessEntries: config.MEDIA_ACCESS_ENTRIES,
    accessMaxMs: config.MEDIA_ACCESS_MAX_MS,
    timeoutMs: config.PROXY_TIMEOUT_MS,
    logger,
    securityHeaders: headersSetBy(security),
    async resolveCaller(req): Promise<CallerOutcome> {
      const who = await identify(req);
      const caller = who.identity
        ? { kind: 'member' as const, ...who.identity }
        : who.device
          ? { kind: 'device' as const, ...who.device }
          : undefined;
      return {
        caller,
        cookies: who.cookies,
        unavailable: Boolean(who.sessionUnavailable || (!who.identity && who.deviceUnavailable)),
      };
    },
    observe(method, status, startedAt) {
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      requestDuration?.observe({ method, route: '/media/:key', status_code: String(status) }, seconds);
    },
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
    async start(port = config.PORT, internalPort = config.INTERNAL_PORT) {
      nats = await connectNats(config.NATS_URL, logger, 'gateway');
      await ensureStreams(nats.jsm);
      feed = startRevocationFeed({
        js: nats.js,
        store: revocations,
        ttlSeconds: SESSION_TOKEN_TTL_SECONDS,
        logger,
        onRevoked: (sid) => events.end((c) => c.sessionId === sid),
      });
      // Revoked displays: every revocation a device token could outlive (they live a year), from SCREENS.
      deviceFeed = startRevocationFeed({
        js: nats.js,
        store: deviceRevocations,
        ttlSeconds: DEVICE_TOKEN_TTL_SECONDS,
        logger,
        stream: 'SCREENS',
        subject: subjects.screenRevoked,
        idField: 'deviceId',
        onRevoked: (deviceId) => events.end((c) => c.sessionId === `device:${deviceId}`),
      });
      // Live updates (events.ts): playlist and file changes forwarded to the streams watching them.
      live = startLiveFeed({ js: nats.js, hub: events, logger, onEvent: (event) => media.onEvent(event) });
      // Serve nothing before the recent revocations are known and the live feed is in place (bounded wait: a slow
      // NATS must not block forever).
      const caughtUp = await Promise.race([
        Promise.all([feed.caughtUp, deviceFeed.caughtUp, live.ready]).then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 10_000).unref()),
      ]);
      if (!caughtUp) logger.warn('revocation backlog or live feed not ready within 10 s; continuing');
      const internalApp = express();
      internalApp.disable('x-powered-by');
      internalApp.use(probes);
      internal = await listen(internalApp, internalPort, config.INTERNAL_HOST);
      // every socket ends on close: live streams never become idle
      const listening = await listen(
        handler,
        port,
        config.HOST,
        { headersTimeoutMs: config.HEADERS_TIMEOUT_MS, requestTimeoutMs: config.REQUEST_TIMEOUT_MS },
        { endAllOnClose: true },
      );
      server = listening;
      const actual = listening.port;
      logger.info({ host: config.HOST, port: actual, internalPort: internal.port }, 'gateway listening');
      return { port: actual, url: `http://127.0.0.1:${actual}`, internalUrl: internal.url };
    },
    async close() {
      events.end();
      await server?.close();
      await internal?.close();
      await feed?.stop();
      await deviceFeed?.stop();
      await live?.stop();
      if (nats && !nats.nc.isClosed()) await nats.nc.close();
    },
  };
}
