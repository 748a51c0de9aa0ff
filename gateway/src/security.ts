import { DEVICE_COOKIE, errorMessagesJa } from '@pagecast/contracts';
import type express from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import helmet from 'helmet';

const STRIPE_JS_ORIGIN = 'https://js.stripe.com';

/**
 * What the point purchase dialog's card provider needs, from the configured STRIPE_JS_URL: the real Stripe.js runs
 * its card fields in frames of js.stripe.com and hooks.stripe.com and calls api.stripe.com; a stand-in such as
 * localstripe serves its script and answers its API calls from one origin and uses no frames.
 */
export function cardProviderSources(stripeJsUrl: string): { script: string[]; connect: string[]; frame: string[] } {
  const origin = new URL(stripeJsUrl).origin;
  if (origin === STRIPE_JS_ORIGIN) {
    return {
      script: [STRIPE_JS_ORIGIN],
      connect: ['https://api.stripe.com'],
      frame: [STRIPE_JS_ORIGIN, 'https://hooks.stripe.com'],
    };
  }
  return { script: [origin], connect: [origin], frame: ["'none'"] };
}

/**
 * helmet with a CSP for the composed app: our own scripts, plus the origins of remotes that REMOTES points
 * elsewhere (their manifest is fetched, their chunks are script tags, a dev server adds a websocket).
 */
export function securityHeaders(opts: {
  remoteOrigins: string[];
  https: boolean;
  stripeJsUrl: string;
}): express.RequestHandler {
  const origins = opts.remoteOrigins;
  const card = cardProviderSources(opts.stripeJsUrl);
  const sockets = origins.map((o) => o.replace(/^http/, 'ws'));
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...origins, ...card.script],
        connectSrc: ["'self'", ...origins, ...sockets, ...card.connect],
        imgSrc: ["'self'", 'data:', 'blob:', ...origins],
        styleSrc: ["'self'", "'unsafe-inline'", ...origins],
        fontSrc: ["'self'", 'data:', ...origins],
        frameSrc: card.frame,
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
  // express-rate-limit has set Retry-After (standardHeaders); the body carries it too, as the services' 429s do.
  const handler: express.RequestHandler = (_req, res) => {
    const retryAfterSeconds = Number(res.getHeader('retry-after')) || Math.ceil(opts.windowMs / 1000);
    res
      .status(429)
      .set('Cache-Control', 'no-store')
      .json({ code: 'RATE_LIMITED', message: errorMessagesJa.RATE_LIMITED, details: { retryAfterSeconds } });
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
