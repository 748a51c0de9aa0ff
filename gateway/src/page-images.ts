// Page images (media.ts), wired to the gateway: callers identified exactly as for /api, the security headers every
// answer carries, and the request metrics (server.ts).
import { type MembershipStore, mediaWorkspace } from './memberships';
import type { createHttpApp, DeviceRpcClient } from '@pagecast/service-kit';
import type express from 'express';
import type { GatewayConfig } from './config';
import type { callerIdentifier } from './identify';
import type { Logger } from './log';
import { type CallerOutcome, createMediaServer } from './media';

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

export function pageImages(
  config: GatewayConfig,
  deps: {
    identify: ReturnType<typeof callerIdentifier>['identify'];
    security: express.RequestHandler;
    registry: ReturnType<typeof createHttpApp>['registry'];
    logger: Logger;
    /** the workspace memberships (memberships.ts): an image is decided in the workspace the page acts in */
    memberships: MembershipStore;
    /** the display-read relay, once NATS is connected: displays' access checks go there */
    deviceReads?: () => DeviceRpcClient | undefined;
    deviceHeader?: (device: { deviceId: string; screenId: string; ownerId: string }) => string;
  },
) {
  const { identify, security, registry, logger } = deps;

  const requestDuration = registry.getSingleMetric('http_request_duration_seconds') as
    | { observe(labels: Record<string, string>, seconds: number): void }
    | undefined;
  return createMediaServer({
    filesUrl: config.FILES_URL,
    internalSecret: config.INTERNAL_SECRET,
    cacheBytes: config.MEDIA_CACHE_BYTES,
    accessEntries: config.MEDIA_ACCESS_ENTRIES,
    accessMaxMs: config.MEDIA_ACCESS_MAX_MS,
    timeoutMs: config.PROXY_TIMEOUT_MS,
    ...(deps.deviceReads ? { deviceReads: deps.deviceReads } : {}),
    ...(deps.deviceHeader ? { deviceHeader: deps.deviceHeader } : {}),
    logger,
    securityHeaders: headersSetBy(security),
    async resolveCaller(req): Promise<CallerOutcome> {
      const who = await identify(req);
      // an <img> names no workspace: the one the page's calls last named (memberships.ts, mediaWorkspace)
      const caller = who.identity
        ? {
            kind: 'member' as const,
            ...who.identity,
            ...mediaWorkspace(deps.memberships, who.identity.userId, req.headers),
          }
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
}
