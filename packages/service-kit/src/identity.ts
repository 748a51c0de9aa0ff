import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  CLIENT_ADDRESS_HEADER,
  DeviceIdentity,
  IDENTITY_HEADER,
  Identity,
  type WorkspaceRole,
} from '@pagecast/contracts';
import type { Request, RequestHandler } from 'express';
import type { z } from 'zod';
import { AppError } from './errors';

type IdentityValue = z.infer<typeof Identity>;
type DeviceIdentityValue = z.infer<typeof DeviceIdentity>;
type WorkspaceRoleValue = z.infer<typeof WorkspaceRole>;

declare global {
  namespace Express {
    interface Request {
      /** Set by identityMiddleware from the gateway's signed header; undefined = anonymous. */
      identity?: IdentityValue;
      /** Set instead when the caller is a paired display (screens); never a member identity. */
      device?: DeviceIdentityValue;
      /**
       * Set by clientAddressMiddleware: the address the gateway signed, else the connection's own. Per-address
       * limits count on it, never on X-Forwarded-For (which anyone on the way may write).
       */
      clientAddress?: string;
    }
  }
}

/** How old (or how far in the future, for clock skew) a header may be. */
export const IDENTITY_MAX_AGE_SECONDS = 60;

function mac(payload: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest();
}

/** `<base64url(JSON {userId, sessionId, iat})>.<base64url(HMAC-SHA256(secret, first part))>`; `now` in ms. */
export function signIdentityHeader(
  identity: { userId: string; sessionId: string; workspaceId?: string; role?: WorkspaceRoleValue },
  secret: string,
  now: number = Date.now(),
): string {
  const json = JSON.stringify({
    userId: identity.userId,
    sessionId: identity.sessionId,
    iat: Math.floor(now / 1000),
    // only when another workspace than the caller's own is named: the header stays as it was for the common case
    ...(identity.workspaceId && identity.workspaceId !== identity.userId
      ? { workspaceId: identity.workspaceId, role: identity.role }
      : {}),
  });
  const payload = Buffer.from(json).toString('base64url');
  return `${payload}.${mac(payload, secret).toString('base64url')}`;
}

/** A paired display's identity header (kind 'device'); same format and key as a member's. */
export function signDeviceIdentityHeader(
  device: { deviceId: string; screenId: string; ownerId: string },
  secret: string,
  now: number = Date.now(),
): string {
  const json = JSON.stringify({
    kind: 'device',
    deviceId: device.deviceId,
    screenId: device.screenId,
    ownerId: device.ownerId,
    iat: Math.floor(now / 1000),
  });
  const payload = Buffer.from(json).toString('base64url');
  return `${payload}.${mac(payload, secret).toString('base64url')}`;
}

/** The member identity when the signature matches and iat is within 60 s of `now` (ms); otherwise null. */
export function verifyIdentityHeader(
  value: string | undefined,
  secret: string,
  now: number = Date.now(),
): IdentityValue | null {
  const any = verifyAnyIdentityHeader(value, secret, now);
  return any && !('kind' in any) ? any : null;
}

// Made once: zod compiles a schema's checks on its first parse, so a schema made per call (`.strict()` in the
// function) was compiled again on every request (most of this function's ~0.2 ms).
const strictDevice = DeviceIdentity.strict();
const strictMember = Identity.strict();

/** A member's or a device's identity (told apart by `kind`), or null. */
export function verifyAnyIdentityHeader(
  value: string | undefined,
  secret: string,
  now: number = Date.now(),
): IdentityValue | DeviceIdentityValue | null {
  if (!value) return null;
  const parts = value.split('.');
  if (parts.length !== 2) return null;
  const [payload = '', signature = ''] = parts;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(payload, secret);
  // Equal lengths first: timingSafeEqual throws otherwise; the length of an HMAC is no secret.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  // A device header has kind 'device' and no userId; a member header has no kind (strict: nothing mixes).
  const schema = (parsed as { kind?: unknown } | null)?.kind === 'device' ? strictDevice : strictMember;
  const result = schema.safeParse(parsed);
  if (!result.success) return null;
  const age = Math.floor(now / 1000) - result.data.iat;
  if (Math.abs(age) > IDENTITY_MAX_AGE_SECONDS) return null;
  return result.data;
}

/** Sets req.identity from the header; no header = anonymous; a present but bad header → 401. */
export function identityMiddleware(secret: string): RequestHandler {
  return (req, _res, next) => {
    const header = req.headers[IDENTITY_HEADER];
    req.identity = undefined;
    if (header === undefined) {
      next();
      return;
    }
    req.device = undefined;
    const identity = verifyAnyIdentityHeader(Array.isArray(header) ? undefined : header, secret);
    if (!identity) {
      next(new AppError('UNAUTHORIZED'));
      return;
    }
    // A device is never a member: routes that call requireIdentity refuse it as anonymous.
    if ('kind' in identity) req.device = identity;
    else req.identity = identity;
    next();
  };
}

/** The caller's identity or a 401 (a paired display gets DEVICE_NOT_ALLOWED: it may not act as a member). */
export function requireIdentity(req: Request): IdentityValue {
  if (req.device) throw new AppError('DEVICE_NOT_ALLOWED');
  if (!req.identity) throw new AppError('UNAUTHORIZED');
  return req.identity;
}

/** The paired display's identity, or 401. */
export function requireDevice(req: Request): DeviceIdentityValue {
  if (!req.device) throw new AppError('UNAUTHORIZED');
  return req.device;
}

// A domain of its own in the MAC: a signed address can never pass for an identity header, nor the reverse.
const ADDRESS_DOMAIN = 'client-address:';

/** `<base64url(JSON {addr, iat})>.<base64url(HMAC-SHA256(secret, "client-address:" + first part))>`; `now` in ms. */
export function signClientAddressHeader(address: string, secret: string, now: number = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ addr: address, iat: Math.floor(now / 1000) })).toString('base64url');
  return `${payload}.${mac(ADDRESS_DOMAIN + payload, secret).toString('base64url')}`;
}

/** The address when the signature matches and iat is within 60 s of `now` (ms); otherwise null. */
export function verifyClientAddressHeader(
  value: string | undefined,
  secret: string,
  now: number = Date.now(),
): string | null {
  if (!value) return null;
  const [payload = '', signature = '', extra] = value.split('.');
  if (extra !== undefined) return null;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(ADDRESS_DOMAIN + payload, secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed: { addr?: unknown; iat?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    return null;
  }
  if (typeof parsed?.addr !== 'string' || parsed.addr.length === 0 || parsed.addr.length > 64) return null;
  if (typeof parsed.iat !== 'number' || !Number.isInteger(parsed.iat)) return null;
  if (Math.abs(Math.floor(now / 1000) - parsed.iat) > IDENTITY_MAX_AGE_SECONDS) return null;
  return parsed.addr;
}

/**
 * Sets req.clientAddress: the address the gateway signed, or, without a valid one (a caller that is not the gateway:
 * a probe, a service, someone on the network), the connection's own address. X-Forwarded-For is never read.
 */
export function clientAddressMiddleware(secret: string): RequestHandler {
  return (req, _res, next) => {
    const header = req.headers[CLIENT_ADDRESS_HEADER];
    const signed = typeof header === 'string' ? verifyClientAddressHeader(header, secret) : null;
    req.clientAddress = signed ?? req.socket.remoteAddress ?? 'unknown';
    next();
  };
}
