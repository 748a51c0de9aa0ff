import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { CLIENT_ADDRESS_HEADER, errorMessagesJa, type ServiceName } from '@pagecast/contracts';
import { KEEP_ALIVE_TIMEOUT_MS, signClientAddressHeader } from '@pagecast/service-kit';
import type { Request } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { Logger } from './log';

export type ServiceTargets = Record<ServiceName, string>;

/** How long the gateway keeps an idle connection to a service: well under the services' keep-alive time-out. */
/** How long the gateway waits for the answer of the call that completes a resumable upload (at least). */
export const RESUMABLE_FINISH_TIMEOUT_MS = 5 * 60_000;

export const IDLE_UPSTREAM_MS = Math.min(30_000, KEEP_ALIVE_TIMEOUT_MS / 2);

/** Set-Cookie values from the gateway (refresh, clear) survive the upstream's headers unless it sets the same cookie. */
function mergeSetCookie(ours: string[], upstream: string[]): string[] {
  const upstreamNames = new Set(upstream.map((c) => c.slice(0, c.indexOf('=')).trim()));
  return [...ours.filter((c) => !upstreamNames.has(c.slice(0, c.indexOf('=')).trim())), ...upstream];
}

function asList(value: number | string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [String(value)];
}

function unavailable(res: ServerResponse, status: number) {
  const body = JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: errorMessagesJa.SERVICE_UNAVAILABLE });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

/**
 * What a service hears of who calls: the address the gateway saw, or the one a proxy that TRUST_PROXY trusts stated
 * (express's req.ip), in X-Forwarded-For alone and signed in the client-address header, which is the one services
 * count on. Whatever the client sent in these headers (or in Forwarded) is replaced, never appended to: an appended
 * list let a service that trusted private hops take the client's own first entry.
 */
export function stateClientAddress(req: Request, internalSecret: string): void {
  const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  req.headers['x-forwarded-for'] = address;
  req.headers['x-forwarded-proto'] = req.protocol;
  if (req.host) req.headers['x-forwarded-host'] = req.host;
  else delete req.headers['x-forwarded-host'];
  delete req.headers['x-forwarded-port'];
  delete req.headers.forwarded;
  req.headers[CLIENT_ADDRESS_HEADER] = signClientAddressHeader(address, internalSecret);
}

/**
 * One streaming proxy per service. Bodies are piped both ways (no buffering, so large uploads pass as they
 * come); an unreachable or silent upstream answers 503/502 JSON instead of hanging.
 */
export function createServiceProxy(opts: {
  targets: ServiceTargets;
  timeoutMs: number;
  logger: Logger;
  /** signs the client-address header */
  internalSecret: string;
}) {
  const { logger } = opts;
  // Idle connections to the services are dropped after 30 s, long before the services close them (65 s): Node's
  // default agent kept them until 1 s before the services' 5 s, and a request sent on one as the service closed it
  // failed with ECONNRESET, a 502 for the member (seen in CI on GET /api/points/history).
  const agent = new http.Agent({ keepAlive: true, timeout: IDLE_UPSTREAM_MS });
  const make = (service: ServiceName, timeoutMs = opts.timeoutMs) =>
    createProxyMiddleware<IncomingMessage, ServerResponse>({
      target: opts.targets[service],
      changeOrigin: false,
      // the forwarding headers are written by stateClientAddress; xfwd would append to the client's
      xfwd: false,
      proxyTimeout: timeoutMs,
      agent,
      on: {
        proxyRes(proxyRes, _req, res) {
          const ours = asList(res.getHeader('set-cookie'));
          if (ours.length > 0)
            proxyRes.headers['set-cookie'] = mergeSetCookie(ours, proxyRes.headers['set-cookie'] ?? []);
        },
        error(err, req, res) {
          const code = (err as NodeJS.ErrnoException).code;
          logger.warn({ err, service, url: req.url, code }, 'upstream failed');
          if (!('writeHead' in res)) return void res.destroy(); // a socket (upgrade)
          if (res.headersSent) return void res.destroy();
          if (req.url?.startsWith('/api/logout')) {
            // Logging out must still work while account is away: the gateway clears the cookie itself.
            res.writeHead(302, {
              location: '/',
              'cache-control': 'no-store',
              'set-cookie': asList(res.getHeader('set-cookie')),
            });
            res.end();
            return;
          }
          const refused =
            code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'EAI_AGAIN';
          unavailable(res, refused ? 503 : 502);
        },
      },
    });
  const proxies = {} as Record<ServiceName, ReturnType<typeof make>>;
  for (const service of Object.keys(opts.targets) as ServiceName[]) proxies[service] = make(service);
  // The PATCH that completes a resumable upload answers once the file exists: the service reads the whole object
  // back (up to 2 GiB) first, longer than the usual silence allowed. A 502 there would make the client start over.
  const patient = make('file-conversion', Math.max(opts.timeoutMs, RESUMABLE_FINISH_TIMEOUT_MS));

  return (service: ServiceName, req: Request, res: ServerResponse, route?: { id: string }): Promise<void> => {
    stateClientAddress(req, opts.internalSecret);
    const proxy = route?.id === 'appendResumableUpload' ? patient : proxies[service];
    return proxy(req, res, (err?: unknown) => {
      // http-proxy-middleware also reports errors here after the error event has answered.
      if (err && !res.headersSent) unavailable(res, 502);
    });
  };
}
