// Who is calling (server.ts): the member of a verified session, else a paired display, with the cookies to set or
// clear; what the gateway keeps of it on the answer (res.locals), and the refusals that follow from it.
import type { IncomingMessage } from 'node:http';
import {
  CLIENT_ADDRESS_HEADER,
  DEVICE_COOKIE,
  errorMessagesJa,
  IDENTITY_HEADER,
  SESSION_COOKIE,
} from '@pagecast/contracts';
import type express from 'express';
import { readCookie, serializeCookie } from './cookies';
import type { createDeviceVerifier, DeviceIdentity } from './device';
import type { SessionIdentity, SessionVerifier } from './session';

export interface SessionLocals {
  identity?: SessionIdentity;
  sessionUnavailable?: boolean;
  /** a paired display, when there is no member session */
  device?: DeviceIdentity;
  deviceUnavailable?: boolean;
}

export const sessionOf = (res: express.Response): SessionLocals => res.locals as SessionLocals;

export function sendError(
  res: express.Response,
  status: number,
  code: 'NOT_FOUND' | 'SERVICE_UNAVAILABLE' | 'DEVICE_NOT_ALLOWED' | 'NOT_A_MEMBER',
) {
  res.status(status).set('Cache-Control', 'no-store').json({ code, message: errorMessagesJa[code] });
}

export function sendUnauthorized(res: express.Response) {
  // Exactly this body: the spec's client looks for "401" and "Unauthorized".
  res.status(401).set('Cache-Control', 'no-store').json({ code: 'UNAUTHORIZED', message: 'Unauthorized' });
}

export const requireSession: express.RequestHandler = (_req, res, next) => {
  const locals = sessionOf(res);
  if (locals.identity) return next();
  if (locals.sessionUnavailable) return sendError(res, 503, 'SERVICE_UNAVAILABLE');
  sendUnauthorized(res);
};

export function callerIdentifier(opts: {
  verifier: SessionVerifier;
  devices: ReturnType<typeof createDeviceVerifier>;
  https: boolean;
}) {
  const { verifier, devices, https } = opts;
  const cookie = (value: string, maxAge: number | undefined) =>
    serializeCookie(SESSION_COOKIE, value, { secure: https, maxAge });
  const clearCookie = cookie('', 0);
  const clearDeviceCookie = serializeCookie(DEVICE_COOKIE, '', { secure: https, maxAge: 0 });

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

  return { identify, clearCookie };
}

/** Who calls /api and /media, kept on the answer (sessionOf) with the cookies to set or clear. */
export function identifyCallers(identify: ReturnType<typeof callerIdentifier>['identify']): express.RequestHandler {
  return async (req, res, next) => {
    if (!/^\/(api|media)(\/|$)/.test(req.path)) return next();
    const { cookies, ...who } = await identify(req);
    Object.assign(sessionOf(res), who);
    for (const c of cookies) res.append('Set-Cookie', c);
    next();
  };
}

/**
 * Only the gateway may set the identity and client-address headers: whatever a client sends is dropped before
 * anything else.
 */
export const dropClientIdentity: express.RequestHandler = (req, res, next) => {
  delete req.headers[IDENTITY_HEADER];
  delete req.headers[CLIENT_ADDRESS_HEADER];
  const requestId = res.getHeader('x-request-id');
  if (typeof requestId === 'string') req.headers['x-request-id'] = requestId;
  next();
};
