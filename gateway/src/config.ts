// Gateway configuration, read from the environment (docs/platform.md, "Environment").
//
// Shared with every service (see @pagecast/service-kit baseConfigSchema):
//   PORT             port to listen on (gateway default 8080)
//   HOST             address to listen on (default 127.0.0.1; compose and Kubernetes set 0.0.0.0)
//   HEADERS_TIMEOUT_MS, BODY_IDLE_TIMEOUT_MS, REQUEST_TIMEOUT_MS  HTTP time-outs (10 s, 10 s, 120 s)
//   LOG_LEVEL        pino level (info)
//   LOG_SLOW_DEVICE_MS  a paired display's call is in the request log only when it failed or took longer (1000)
//   NATS_URL         NATS with JetStream; the gateway reads account.session.revoked.v1 from the ACCOUNT stream
//   PUBLIC_URL       the app's origin, e.g. http://localhost:8080; https → the session cookie is Secure, HSTS on
//   INTERNAL_SECRET  HMAC key of the x-pagecast-identity header (at least 32 characters)
// Gateway only:
//   INTERNAL_PORT    the internal listener: /healthz, /readyz and /metrics for probes and the scraper, never on the
//                    public port (default 9090; 0 = any free port)
//   INTERNAL_HOST    its address (default 127.0.0.1; Kubernetes sets 0.0.0.0 so the kubelet and Prometheus reach the
//                    pod, while the Service and the Ingress expose only the public port)
//   ACCOUNT_URL, FILES_URL, MARKETPLACE_URL, BILLING_URL
//                    service origins (defaults http://127.0.0.1:4101 .. 4104)
//   SCREENS_URL      screens service origin (default http://127.0.0.1:4105)
//   JWKS_URL         account's public keys (default ACCOUNT_URL + /.well-known/jwks.json)
//   SCREENS_JWKS_URL screens' device-token keys (default SCREENS_URL + /.well-known/jwks.json)
//   STATIC_DIR       the shell's build (default <repo>/shell/dist)
//   REMOTES_DIR      folder holding mf-files/dist, mf-marketplace/dist, mf-player/dist (default <repo>)
//   REMOTES          optional JSON {"mf_files": "<url of mf-manifest.json>", ...}; replaces the defaults served
//                    by /remotes.json, and its origins are allowed by the CSP
//   PROXY_TIMEOUT_MS upstream idle timeout before 504/503 JSON (default 30000)
//   LISTEN_BACKLOG   connections the kernel holds before the gateway accepts them (default 511, Node's; capped by
//                    net.core.somaxconn). Beyond it, a burst of displays connecting at once (a power cut, the reads
//                    after a playlist edit) has its handshakes dropped and tried again 1 to 31 s later, and requests
//                    on half-open connections reset; 4096 kept them, at a cost in resident memory (docs/scale.md,
//                    "5,000 signing displays, mended")
//   RATE_LIMIT_WINDOW_MS  window of both rate limits (default 60000)
//   RATE_LIMIT_AUTH_MAX   requests per window and address on the auth endpoints (login, register, ...; default 20)
//   RATE_LIMIT_API_MAX    requests per window and address on all of /api (default 600)
//   TRUST_PROXY      express "trust proxy" value (default loopback): which hops may state the client's address in
//                    X-Forwarded-For; the gateway replaces that header with the address it takes and signs it for
//                    the services (proxy.ts). Never a private range: a client on a LAN would choose its address
//   SSE_HEARTBEAT_MS interval of the comment heartbeat on /api/events (default 25000)
//   MEDIA_CACHE_BYTES    byte budget of the page-image cache (default 134217728 = 128 MiB): images are served from
//                        memory, shared by everyone allowed to see them (media.ts); 0 keeps none
//   MEDIA_ACCESS_ENTRIES how many (caller, image) access decisions are remembered (default 100000)
//   MEDIA_ACCESS_MAX_MS  the longest any such decision is remembered (default 60000); file-conversion grants less
//                        for a licence (at most 3 s, never past its end) and for a refusal (2 s)
//   VIDEO_CACHE_DIR      the edge cache of videos (media-video.ts, video-cache.ts): local copies of the videos read,
//                        each version once from storage, then its ranges from disk (default <repo>/.data/video-cache;
//                        a directory the process cannot write: every video read from storage, logged once)
//   VIDEO_CACHE_BYTES    its bound on disk, least recently read copies removed first (default 4294967296 = 4 GiB);
//                        0 keeps none
//   DEVICE_RPC_SUBJECT_PREFIX  where the displays' socket calls go over NATS: `<prefix>.<type>`, answered by the
//                    screens service (default rpc.screens.device; docs/device-socket.md)
//   DEVICE_READ_SUBJECT_PREFIX  where the displays' content reads over their socket go: `<prefix>.<type>`,
//                    answered by file-conversion (default rpc.files.device)
//   DEVICE_RPC_BATCH_MS  the calls relayed within this many ms go as one NATS request (default 4; 0: one each)
//   STRIPE_JS_URL    where the purchase dialog loads Stripe.js (default https://js.stripe.com/endive/stripe.js, the
//                    release @stripe/stripe-js expects; localstripe's /js.stripe.com/v3/ in tests); the CSP allows
//                    its origin and nothing else of the card provider
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_LISTEN_BACKLOG,
  DEVICE_READ_PREFIX,
  DEVICE_RPC_BATCH_MS,
  DEVICE_RPC_PREFIX,
  deviceRpcPrefix,
  loadConfig,
} from '@pagecast/service-kit';
import { z } from 'zod';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const url = (dflt: string) => z.url().default(dflt);

export const gatewayConfigShape = {
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  INTERNAL_PORT: z.coerce.number().int().min(0).max(65535).default(9090),
  INTERNAL_HOST: z.string().min(1).default('127.0.0.1'),
  ACCOUNT_URL: url('http://127.0.0.1:4101'),
  FILES_URL: url('http://127.0.0.1:4102'),
  MARKETPLACE_URL: url('http://127.0.0.1:4103'),
  BILLING_URL: url('http://127.0.0.1:4104'),
  SCREENS_URL: url('http://127.0.0.1:4105'),
  JWKS_URL: z.url().optional(),
  SCREENS_JWKS_URL: z.url().optional(),
  STATIC_DIR: z.string().default(path.join(repoRoot, 'shell', 'dist')),
  REMOTES_DIR: z.string().default(repoRoot),
  REMOTES: z.string().optional(),
  PROXY_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  LISTEN_BACKLOG: z.coerce.number().int().min(1).max(65535).default(DEFAULT_LISTEN_BACKLOG),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(60_000),
  RATE_LIMIT_AUTH_MAX: z.coerce.number().int().positive().default(20),
  RATE_LIMIT_API_MAX: z.coerce.number().int().positive().default(600),
  TRUST_PROXY: z.string().default('loopback'),
  SSE_HEARTBEAT_MS: z.coerce.number().int().positive().default(25_000),
  MEDIA_CACHE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(128 * 1024 * 1024),
  MEDIA_ACCESS_ENTRIES: z.coerce.number().int().positive().default(100_000),
  MEDIA_ACCESS_MAX_MS: z.coerce.number().int().min(0).max(60_000).default(60_000),
  VIDEO_CACHE_DIR: z
    .string()
    .min(1)
    .default(path.join(repoRoot, '.data', 'video-cache')),
  VIDEO_CACHE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(4 * 1024 * 1024 * 1024),
  DEVICE_RPC_SUBJECT_PREFIX: deviceRpcPrefix.default(DEVICE_RPC_PREFIX),
  DEVICE_READ_SUBJECT_PREFIX: deviceRpcPrefix.default(DEVICE_READ_PREFIX),
  DEVICE_RPC_BATCH_MS: z.coerce.number().int().min(0).max(100).default(DEVICE_RPC_BATCH_MS),
  STRIPE_JS_URL: z.url({ protocol: /^https?$/ }).default('https://js.stripe.com/endive/stripe.js'),
};

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env) {
  const cfg = loadConfig(gatewayConfigShape, env);
  return {
    ...cfg,
    JWKS_URL: cfg.JWKS_URL ?? `${cfg.ACCOUNT_URL.replace(/\/$/, '')}/.well-known/jwks.json`,
    SCREENS_JWKS_URL: cfg.SCREENS_JWKS_URL ?? `${cfg.SCREENS_URL.replace(/\/$/, '')}/.well-known/jwks.json`,
  };
}
