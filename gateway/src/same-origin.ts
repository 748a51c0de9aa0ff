import type { IncomingHttpHeaders } from 'node:http';
import { errorMessagesJa, findRoute, refusesCrossSite } from '@pagecast/contracts';
import type express from 'express';

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const originOf = (url: string): string | undefined => {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
};

/**
 * Whether a request was made by one of our own pages (or by no browser page at all), from what the browser says and
 * a page cannot change (OWASP's CSRF cheat sheet: Fetch Metadata, then the Origin and Referer of older browsers):
 * - Sec-Fetch-Site (every current browser): 'same-origin' yes. 'none' yes: the member's own act (the address bar, a
 *   bookmark), with no page in between; browsers send it for navigations only. 'same-site' no (another application
 *   under our site, which we do not trust with our members' sessions), 'cross-site' no, anything else no.
 * - else Origin (a browser older than Fetch Metadata): ours yes; another, or 'null' (a sandboxed or privacy-hidden
 *   page), no.
 * - else Referer: ours yes, another no. Our own pages send none (helmet's Referrer-Policy: no-referrer).
 * - none of the three: yes. Every browser sends Origin with a cross-origin POST, PUT or DELETE, so such a request
 *   is not another site's page: it is a client without a browser (curl, the load tests, a display's tooling), which
 *   holds a member's cookie only if it was given one. The one gap is a GET navigation in a browser without Fetch
 *   Metadata (Safari before 16.4) from a page that hides its Referer: it can sign a member out, as before; our own
 *   logout button looks exactly the same there (same-origin navigation, no Origin, no Referer), so refusing it
 *   would break logout in those browsers.
 * `ownOrigins`: the origins our pages are served from.
 */
export function fromOwnPage(headers: IncomingHttpHeaders, ownOrigins: ReadonlySet<string>): boolean {
  const site = header(headers, 'sec-fetch-site');
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const origin = header(headers, 'origin');
  if (origin !== undefined) return ownOrigins.has(originOf(origin) ?? 'null');
  const referer = header(headers, 'referer');
  if (referer !== undefined) return ownOrigins.has(originOf(referer) ?? 'null');
  return true;
}

/**
 * Refuses, before anything else reads it, a state-changing request (refusesCrossSite of the contracts: every post,
 * put and delete but the card provider's webhook, and the logout navigation) that a page of another site made: 403
 * CROSS_SITE_REQUEST, or for a navigation (GET /api/logout) a redirect to '/', the session untouched. Our origin is
 * the one the request was addressed to (Host, or X-Forwarded-Host and -Proto from a trusted proxy) and PUBLIC_URL's.
 */
export function sameOriginOnly(opts: { publicUrl?: string }): express.RequestHandler {
  const configured = opts.publicUrl ? originOf(opts.publicUrl) : undefined;
  return (req, res, next) => {
    if (!refusesCrossSite(req.method, findRoute(req.method, req.path))) return next();
    const own = new Set<string>();
    if (configured) own.add(configured);
    const addressed = req.host ? originOf(`${req.protocol}://${req.host}`) : undefined;
    if (addressed) own.add(addressed);
    if (fromOwnPage(req.headers, own)) return next();
    res.set('Cache-Control', 'no-store');
    if (req.method === 'GET' || req.method === 'HEAD') return res.redirect(302, '/');
    res.status(403).json({ code: 'CROSS_SITE_REQUEST', message: errorMessagesJa.CROSS_SITE_REQUEST });
  };
}
