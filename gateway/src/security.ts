import { DEVICE_COOKIE, errorMessagesJa } from '@pagecast/contracts';
import type express from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import helmet from 'helmet';

// Card payments (point purchase dialog) load Stripe's script and frames.
const STRIPE_SCRIPT = 'https://js.stripe.com';
const STRIPE_FRAMES = ['https://js.stripe.com', 'https://hooks.stripe.com'];
const STRIPE_API = 'https://api.stripe.com';

/**
 * helmet with a CSP for the composed app: our own scripts, plus the origins of remotes that REMOTES points
 * elsewhere (their manifest is fetched, their chunks are script tags, a dev server adds a websocket).
 */
export function securityHeaders(opts: { remoteOrigins: string[]; https: boolean }): express.RequestHandler {
  const origins = opts.remoteOrigins;
  const sockets = origins.map((o) => o.replace(/^http/, 'ws'));
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...origins, STRIPE_SCRIPT],
        connectSrc: ["'self'", ...origins, ...sockets, STRIPE_API],
        imgSrc: ["'self'", 'data:', 'blob:', ...origins],
        styleSrc: ["'self'", "'unsafe-inline'", ...origins],
        fontSrc: ["'self'", 'data:', ...origins],
        frameSrc: STRIPE_FRAMES,
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        ...(opts.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: opts.https ? { maxAge: 15552000, includeSubDomains: true } : false,
  });
}

/** Auth endpoints that guess or spend something (passwords, mails, tokens): limited per address. */
export const authLimitedPaths = new Set(
  [
    'local-login',
    'register',
    'request-password-reset',
    'reset-password',
    'resend-verification',
    'verify-email',
    'migrate-account',
  ].map((name) => `/api/auth/${name}`),
);

const carriesDevice = (req: express.Request) => (req.headers.cookie ?? '').includes(`${DEVICE_COOKIE}=`);

export function rateLimits(opts: { windowMs: number; authMax: number; apiMax: number; deviceMax?: number }) {
  const handler: express.RequestHandler = (_req, res) => {
    res
      .status(429)
      .set('Cache-Control', 'no-store')
      .json({ code: 'RATE_LIMITED', message: errorMessagesJa.RATE_LIMITED });
  };
  const common = { windowMs: opts.windowMs, standardHeaders: 'draft-7', legacyHeaders: false, handler } as const;
  return {
    auth: rateLimit({
      ...common,
      limit: opts.authMax,
      skip: (req) => req.method !== 'POST' || !authLimitedPaths.has(req.path.replace(/\/$/, '')),
    }),
    api: rateLimit({
      ...common,
      limit: opts.apiMax,
      // page images (/media) are cached, not limited; paired displays are limited per device below, because a
      // shop's screens share one public address
      skip: (req) => !req.path.startsWith('/api/') || carriesDevice(req),
    }),
    /** After the device check: per device when its token is valid, per address when it is not. */
    device: rateLimit({
      ...common,
      limit: opts.deviceMax ?? opts.apiMax,
      skip: (req) => !req.path.startsWith('/api/') || !carriesDevice(req),
      keyGenerator: (req, res) => {
        const device = (res.locals as { device?: { deviceId: string } }).device;
        return device ? `device:${device.deviceId}` : ipKeyGenerator(req.ip ?? '');
      },
    }),
  };
}

/** TRUST_PROXY env → express "trust proxy" value. */
export function trustProxyValue(raw: string): boolean | number | string {
  if (raw === 'true') return true;
  if (raw === 'false' || raw === '') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}
