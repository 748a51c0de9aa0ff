// Page images at the gateway: GET and HEAD /media/<sha256>.webp are answered here, from memory, instead
// of being proxied to file-conversion, which streamed each one from S3 after its own access check.
//
// Why here and why this way: an image is immutable and named by its content hash, so its bytes can be shared by
// everyone allowed to see it, and only the access decision is personal. A screen fetches each image once, but a
// playlist pushed to ten thousand screens fetches the same pages ten thousand times within a minute: those must not
// cost ten thousand S3 reads and proxied streams. Signed short-lived URLs would still send every fetch to storage
// (and a signed URL, once handed out, outlives a revocation or an ended licence until it expires); a cache in front
// of S3 would still need a per-request access decision somewhere. The gateway already verifies every caller locally
// (session or device token, revocations over NATS), so it is the one place that can answer a repeated image with no
// round trip at all:
//
// - Who: the caller is verified exactly as for /api (page-images.ts `resolveCaller`), revocations on every request.
// - May they: file-conversion decides, once per (caller, image) and grant, through GET /internal/media-access/<key>
//   (no bytes; a display's over the display-read relay instead, gathered with the others': a boot asks for every
//   display and image at once), and says how long the answer may be remembered: an owner's yes up to 60 s, a
//   licence's at most 3 s and never past its end, a refusal 2 s. Kept in a bounded LRU (lru-cache, each entry with its own time), also capped by
//   MEDIA_ACCESS_MAX_MS; events the gateway already reads drop entries early: a deleted or changed file (its owner's
//   entries), an ended licence (the buyer's), a screen's new content or its owner's playlist edits (that owner's
//   displays).
// - Bytes: a byte-budgeted LRU (lru-cache, MEDIA_CACHE_BYTES) keyed by the content hash, filled by one
//   GET /internal/media/<key> to file-conversion per image however many callers miss at once (coalesced): the bytes
//   only, since the decision was made just before (a miss is decided once, not again with the bytes).
// - Answer: the same headers as before (owner: private, immutable; licence: private, no-cache so the browser asks
//   again; ETag "<key>" and 304 on If-None-Match; 404 for refused or missing), plus the security headers the gateway
//   sets on every answer, precomputed; a hit is written with one writeHead and one end, outside express.
//
// This file routes the request and decides; media-caches.ts holds the two caches, media-upstream.ts the two calls to
// file-conversion, media-answers.ts the answers' headers.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AnyEvent } from '@pagecast/contracts';
import type { DeviceRpcClient } from '@pagecast/service-kit';
import type { Logger } from './log';
import { mediaAnswers } from './media-answers';
import { AccessCache, ByteCache, forgetDecisions } from './media-caches';
import { type MediaCaller, type MediaCounts, mediaUpstream, UpstreamError } from './media-upstream';

export { LICENCE_CACHE_CONTROL, MEDIA_CACHE_CONTROL } from './media-answers';
export { AccessCache, ByteCache } from './media-caches';
export type { MediaCaller } from './media-upstream';

/** The keys served here: content-hash page images. Anything else under /media goes to file-conversion as before. */
const MEDIA_URL = /^\/media\/([0-9a-f]{64})\.webp(?:\?.*)?$/;
const REQUEST_ID = /^[\w.:-]{1,128}$/;

export interface CallerOutcome {
  caller?: MediaCaller;
  /** Set-Cookie values to send with the answer (a refreshed session, a cleared cookie) */
  cookies: string[];
  /** the keys to verify a credential could not be read: 503 rather than 401 */
  unavailable: boolean;
}

export interface MediaOptions {
  filesUrl: string;
  internalSecret: string;
  /** byte budget of the image cache */
  cacheBytes: number;
  /** how many (caller, image) decisions are remembered */
  accessEntries: number;
  /** upper bound on how long any decision is remembered, whatever file-conversion grants */
  accessMaxMs: number;
  timeoutMs: number;
  /** the display-read relay, once connected: displays' access checks go there (media-upstream.ts) */
  deviceReads?: () => DeviceRpcClient | undefined;
  /** a display's signed identity header, reused for a few seconds (device-headers.ts) */
  deviceHeader?: (device: { deviceId: string; screenId: string; ownerId: string }) => string;
  logger: Logger;
  /** the caller, verified as for /api (revocations included) */
  resolveCaller(req: IncomingMessage): Promise<CallerOutcome>;
  /** headers the gateway sets on every answer (helmet's), precomputed */
  securityHeaders: Array<[string, string]>;
  /** counts each answer in the gateway's request metrics */
  observe?(method: string, status: number, startedAt: bigint): void;
}

export interface MediaServer {
  /** Answers GET/HEAD /media/<sha256>.webp and returns true; false for anything else (left to express). */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Drops the decisions an event may have changed. */
  onEvent(event: AnyEvent): void;
  readonly access: AccessCache;
  readonly bytes: ByteCache;
  /** upstream calls made: access checks and byte fetches (for tests and metrics) */
  readonly counts: MediaCounts;
}

export function createMediaServer(opts: MediaOptions): MediaServer {
  const { logger } = opts;
  const access = new AccessCache(opts.accessEntries);
  const bytes = new ByteCache(opts.cacheBytes);
  const counts: MediaCounts = { checks: 0, fetches: 0, hits: 0 };
  const { check, fetchBytes } = mediaUpstream(opts, access, bytes, counts);
  const { sendJson, notModified, image } = mediaAnswers(opts.securityHeaders);

  const serve = async (req: IncomingMessage, res: ServerResponse, hash: string, requestId: string) => {
    const who = await opts.resolveCaller(req);
    const { caller, cookies } = who;
    if (!caller) {
      // As for /api: no caller is 401, keys that could not be read 503 (file-conversion answered 401 to both).
      sendJson(
        res,
        who.unavailable ? 503 : 401,
        who.unavailable ? 'SERVICE_UNAVAILABLE' : 'UNAUTHORIZED',
        cookies,
        requestId,
      );
      return;
    }
    const key = `${hash}.webp`;
    // a member's decision is theirs in one workspace: another workspace's may differ
    const cacheKey = `${caller.kind === 'member' ? `u:${caller.userId}:${caller.workspaceId ?? ''}` : `d:${caller.deviceId}`}\u0000${hash}`;
    const decision = access.get(cacheKey) ?? (await check(caller, cacheKey, key, requestId));
    if (!decision.access) {
      sendJson(res, 404, 'NOT_FOUND', cookies, requestId);
      return;
    }
    const etag = `"${key}"`;
    if (req.headers['if-none-match'] === etag) {
      notModified(res, decision.access, etag, cookies, requestId);
      return;
    }
    let body = bytes.get(hash);
    if (body) counts.hits++;
    else {
      const fetched = await fetchBytes(caller, hash, key, requestId);
      if (!fetched) {
        sendJson(res, 404, 'NOT_FOUND', cookies, requestId);
        return;
      }
      body = fetched;
    }
    image(req, res, decision.access, body, etag, cookies, requestId);
  };

  return {
    access,
    bytes,
    counts,
    handle(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const url = req.url;
      if (!url?.startsWith('/media/')) return false;
      const match = MEDIA_URL.exec(url);
      if (!match) return false;
      const startedAt = process.hrtime.bigint();
      const given = req.headers['x-request-id'];
      const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      if (opts.observe) res.once('finish', () => opts.observe?.(req.method ?? 'GET', res.statusCode, startedAt));
      serve(req, res, match[1] as string, requestId).catch((err: unknown) => {
        const status = err instanceof UpstreamError ? 502 : 503;
        logger.warn({ err, url, requestId }, 'page image: file-conversion failed');
        if (res.headersSent) res.destroy();
        else sendJson(res, status, 'SERVICE_UNAVAILABLE', [], requestId);
      });
      return true;
    },
    onEvent(event) {
      forgetDecisions(access, event);
    },
  };
}
