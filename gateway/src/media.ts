// Page images at the gateway (issue 14): GET and HEAD /media/<sha256>.webp are answered here, from memory, instead
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
// - Who: the caller is verified exactly as for /api (server.ts `resolveCaller`), revocations on every request.
// - May they: file-conversion decides, once per (caller, image) and grant, through GET /internal/media-access/<key>
//   (no bytes), and says how long the answer may be remembered: an owner's yes up to 60 s, a licence's at most 3 s and
//   never past its end, a refusal 2 s. Kept in a bounded LRU (lru-cache, each entry with its own time), also capped by
//   MEDIA_ACCESS_MAX_MS; events the gateway already reads drop entries early: a deleted or changed file (its owner's
//   entries), an ended licence (the buyer's), a screen's new content or its owner's playlist edits (that owner's
//   displays).
// - Bytes: a byte-budgeted LRU (lru-cache, MEDIA_CACHE_BYTES) keyed by the content hash, filled by one
//   GET /internal/media/<key> to file-conversion per image however many callers miss at once (coalesced): the bytes
//   only, since the decision was made just before (a miss is decided once, not again with the bytes).
// - Answer: the same headers as before (owner: private, immutable; licence: private, no-cache so the browser asks
//   again; ETag "<key>" and 304 on If-None-Match; 404 for refused or missing), plus the security headers the gateway
//   sets on every answer, precomputed; a hit is written with one writeHead and one end, outside express.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type AnyEvent,
  errorMessagesJa,
  IDENTITY_HEADER,
  internalMediaAccessPath,
  internalMediaPath,
  MediaAccessAnswer,
  subjects,
} from '@pagecast/contracts';
import { signDeviceIdentityHeader, signIdentityHeader } from '@pagecast/service-kit';
import { LRUCache } from 'lru-cache';
import type { Logger } from './log';

export const MEDIA_CACHE_CONTROL = 'private, max-age=31536000, immutable';
export const LICENCE_CACHE_CONTROL = 'private, no-cache';

/** The keys served here: content-hash page images. Anything else under /media goes to file-conversion as before. */
const MEDIA_URL = /^\/media\/([0-9a-f]{64})\.webp(?:\?.*)?$/;
const REQUEST_ID = /^[\w.:-]{1,128}$/;

export type MediaCaller =
  | { kind: 'member'; userId: string; sessionId: string }
  | { kind: 'device'; deviceId: string; screenId: string; ownerId: string };

export interface CallerOutcome {
  caller?: MediaCaller;
  /** Set-Cookie values to send with the answer (a refreshed session, a cleared cookie) */
  cookies: string[];
  /** the keys to verify a credential could not be read: 503 rather than 401 */
  unavailable: boolean;
}

interface AccessEntry {
  access: 'owner' | 'licence' | null;
  /** whose rule applied: the member, or a display's owner (events about them drop the entry) */
  subject: string;
  /** a display's screen (its new content drops the entry) */
  screenId?: string;
}

/** (caller, image) → access, each entry until the end file-conversion granted; bounded, least recently used out. */
export class AccessCache {
  private readonly lru: LRUCache<string, AccessEntry>;
  /** bumped by every forget, so an answer asked before one is not stored after it */
  generation = 0;

  constructor(max: number) {
    this.lru = new LRUCache({ max });
  }

  get(key: string): AccessEntry | undefined {
    return this.lru.get(key);
  }

  /** Kept for `ms` (nothing kept for 0). */
  set(key: string, entry: AccessEntry, ms: number): void {
    if (ms > 0) this.lru.set(key, entry, { ttl: ms });
  }

  forget(test: (entry: AccessEntry) => boolean): number {
    this.generation++;
    const gone = [...this.lru.entries()].filter(([, entry]) => test(entry)).map(([key]) => key);
    for (const key of gone) this.lru.delete(key);
    return gone.length;
  }

  get size(): number {
    return this.lru.size;
  }
}

/** content hash → bytes, least recently used out first, never above `budget` bytes in all (0: none kept). */
export class ByteCache {
  private readonly lru: LRUCache<string, Buffer> | undefined;

  constructor(readonly budget: number) {
    // an image larger than the whole budget is not kept (lru-cache's maxEntrySize defaults to maxSize)
    this.lru = budget > 0 ? new LRUCache({ maxSize: budget, sizeCalculation: (b) => b.length }) : undefined;
  }

  get(hash: string): Buffer | undefined {
    return this.lru?.get(hash);
  }

  set(hash: string, bytes: Buffer): void {
    this.lru?.set(hash, bytes);
  }

  has(hash: string): boolean {
    return this.lru?.has(hash) ?? false;
  }

  get bytes(): number {
    return this.lru?.calculatedSize ?? 0;
  }

  get size(): number {
    return this.lru?.size ?? 0;
  }
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
  readonly counts: { checks: number; fetches: number; hits: number };
}

class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export function createMediaServer(opts: MediaOptions): MediaServer {
  const { logger } = opts;
  const access = new AccessCache(opts.accessEntries);
  const bytes = new ByteCache(opts.cacheBytes);
  const counts = { checks: 0, fetches: 0, hits: 0 };
  const checking = new Map<string, Promise<AccessEntry>>();
  const fetching = new Map<string, Promise<Buffer | null>>();
  const filesUrl = opts.filesUrl.replace(/\/$/, '');

  // Header lists, built once: the security headers and the image's own, per kind of access.
  const security = opts.securityHeaders.flat();
  const imageHeaders = {
    owner: [...security, 'content-type', 'image/webp', 'cache-control', MEDIA_CACHE_CONTROL],
    licence: [...security, 'content-type', 'image/webp', 'cache-control', LICENCE_CACHE_CONTROL],
  };
  const notModifiedHeaders = {
    owner: [...security, 'cache-control', MEDIA_CACHE_CONTROL],
    licence: [...security, 'cache-control', LICENCE_CACHE_CONTROL],
  };

  const identityHeader = (caller: MediaCaller) =>
    caller.kind === 'member'
      ? signIdentityHeader(caller, opts.internalSecret)
      : signDeviceIdentityHeader(caller, opts.internalSecret);

  const upstreamHeaders = (caller: MediaCaller, requestId: string) => ({
    [IDENTITY_HEADER]: identityHeader(caller),
    'x-request-id': requestId,
  });

  const check = (caller: MediaCaller, cacheKey: string, key: string, requestId: string): Promise<AccessEntry> => {
    let pending = checking.get(cacheKey);
    if (pending) return pending;
    const generation = access.generation;
    pending = (async () => {
      counts.checks++;
      const res = await fetch(`${filesUrl}${internalMediaAccessPath(key)}`, {
        headers: upstreamHeaders(caller, requestId),
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new UpstreamError(`media access check answered ${res.status}`, res.status);
      }
      const answer = MediaAccessAnswer.parse(await res.json());
      const entry: AccessEntry = {
        access: answer.access,
        subject: caller.kind === 'member' ? caller.userId : caller.ownerId,
        ...(caller.kind === 'device' ? { screenId: caller.screenId } : {}),
      };
      // An answer asked before an event that may change it is used once, not remembered.
      if (access.generation === generation) access.set(cacheKey, entry, Math.min(answer.maxAgeMs, opts.accessMaxMs));
      return entry;
    })().finally(() => checking.delete(cacheKey));
    checking.set(cacheKey, pending);
    return pending;
  };

  const fetchBytes = (caller: MediaCaller, hash: string, key: string, requestId: string): Promise<Buffer | null> => {
    let pending = fetching.get(hash);
    if (pending) return pending;
    pending = (async () => {
      counts.fetches++;
      const res = await fetch(`${filesUrl}${internalMediaPath(key)}`, {
        headers: upstreamHeaders(caller, requestId),
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      if (res.status === 404) {
        await res.body?.cancel();
        return null;
      }
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new UpstreamError(`media fetch answered ${res.status}`, res.status);
      }
      const body = Buffer.from(await res.arrayBuffer());
      bytes.set(hash, body);
      return body;
    })().finally(() => fetching.delete(hash));
    fetching.set(hash, pending);
    return pending;
  };

  const sendJson = (
    res: ServerResponse,
    status: number,
    code: 'NOT_FOUND' | 'UNAUTHORIZED' | 'SERVICE_UNAVAILABLE',
    cookies: string[],
    requestId: string,
  ) => {
    // Exactly this 401 body, as the gateway's other 401s: the spec's client looks for "401" and "Unauthorized".
    const body = JSON.stringify({ code, message: code === 'UNAUTHORIZED' ? 'Unauthorized' : errorMessagesJa[code] });
    const headers = [
      ...security,
      'content-type',
      'application/json; charset=utf-8',
      'content-length',
      String(Buffer.byteLength(body)),
      'cache-control',
      'no-store',
      'x-request-id',
      requestId,
    ];
    for (const c of cookies) headers.push('set-cookie', c);
    res.writeHead(status, headers);
    res.end(body);
  };

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
    const cacheKey = `${caller.kind === 'member' ? `u:${caller.userId}` : `d:${caller.deviceId}`}\u0000${hash}`;
    const decision = access.get(cacheKey) ?? (await check(caller, cacheKey, key, requestId));
    if (!decision.access) {
      sendJson(res, 404, 'NOT_FOUND', cookies, requestId);
      return;
    }
    const etag = `"${key}"`;
    if (req.headers['if-none-match'] === etag) {
      const headers = [...notModifiedHeaders[decision.access], 'etag', etag, 'x-request-id', requestId];
      for (const c of cookies) headers.push('set-cookie', c);
      res.writeHead(304, headers);
      res.end();
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
    const headers = [
      ...imageHeaders[decision.access],
      'content-length',
      String(body.length),
      'etag',
      etag,
      'x-request-id',
      requestId,
    ];
    for (const c of cookies) headers.push('set-cookie', c);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
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
      switch (event.type) {
        case subjects.fileDeleted:
        case subjects.fileUpdated: {
          const owner = event.data.ownerId;
          access.forget((e) => e.subject === owner);
          break;
        }
        case subjects.licenceExpired: {
          const buyer = event.data.buyerId;
          access.forget((e) => e.subject === buyer);
          break;
        }
        case subjects.screenChanged: {
          const screen = event.data.screenId;
          access.forget((e) => e.screenId === screen);
          break;
        }
        case subjects.playlistSaved:
        case subjects.playlistDeleted: {
          const owner = event.data.ownerId;
          access.forget((e) => e.screenId !== undefined && e.subject === owner);
          break;
        }
        default:
          break;
      }
    },
  };
}
