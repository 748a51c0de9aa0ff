// Videos at the gateway: GET and HEAD /media/video/<id> (and .../preview) are answered here, the bytes read from
// object storage by the gateway itself, instead of being proxied to file-conversion, which streamed them from S3.
//
// Why: a video is large and read in ranges as it plays; every byte through two Node processes (file-conversion
// reading S3, the gateway proxying it) cost each about 5 ms of CPU per MiB, half of it in GC, and the pair reached a
// tenth of what nginx serves from disk. The decision stays file-conversion's; only the bytes take the short way:
//
// - Who: the caller is verified and its workspace, role and route rules applied exactly as for any proxied /media
//   call (api-routes.ts): this runs where the proxy would, with the same signed identity header.
// - May they: file-conversion decides with the same use cases as its own video routes
//   (GET /internal/video-access/<id>[/preview]); a refusal is that route's answer (401/403/404 and its code), sent on
//   as it came. A yes carries the video's size, type, ETag, Cache-Control and a short-lived signed read of the object
//   (never sent on), and how long the gateway may reuse it: an owner's up to 60 s, a licence's at most 3 s and never
//   past its end; kept per (caller, file) in a bounded LRU, also capped by MEDIA_ACCESS_MAX_MS, and dropped early by
//   the events that drop page-image decisions (media-caches.ts), plus any change or deletion of the file itself.
// - Answer: the HTTP of file-conversion's route, kept: ETag and 304 on If-None-Match, one range (206 with
//   Content-Range) unless If-Range names another version, 416 with `bytes */<size>` past the end, the whole (200)
//   without a usable Range, HEAD without a body.
// - Bytes: from the gateway's local copy of this version when it has one (video-cache.ts: the edge cache of videos,
//   each version copied once, named by its ETag and size, so the decision above still comes first and a new
//   version is never the old bytes); else one ranged GET of the object per request on kept-alive connections to the
//   storage, each read into the
//   connection's own 256 KiB buffer and written from it straight to the client's socket, the next read waiting until
//   the kernel has taken it (storage-reads.ts): no allocation, no copy, no stream machinery per chunk. An https
//   storage endpoint is read through node:https and piped instead.
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type AnyEvent,
  errorMessagesJa,
  IDENTITY_HEADER,
  internalVideoAccessPath,
  subjects,
  VideoAccessAnswer,
} from '@pagecast/contracts';
import { parseRange } from '@pagecast/service-kit';
import type { Logger } from './log';
import { type AccessEntry, AccessCache, forgetDecisions } from './media-caches';
import { IDLE_UPSTREAM_MS } from './proxy';
import { createStorageReads } from './storage-reads';
import { createVideoCache } from './video-cache';

export interface VideoEntry extends AccessEntry {
  answer: VideoAccessAnswer;
  /** the preview clip's answer, not the video's */
  preview: boolean;
}

/** Whose decision an answer is, for the cache and for the events that drop it. */
export interface VideoCaller {
  /** the caller as decided: a member in one workspace with one role, or a display */
  key: string;
  /** whose rule applied: the workspace read as (a member's), or a display's owner */
  subject: string;
  /** a display's screen */
  screenId?: string;
}

export interface VideoOptions {
  filesUrl: string;
  /** how many (caller, video) decisions are remembered */
  accessEntries: number;
  /** upper bound on how long any decision is remembered, whatever file-conversion grants */
  accessMaxMs: number;
  timeoutMs: number;
  /** the edge cache of videos (video-cache.ts): its directory and byte bound (0: none) */
  cacheDir: string;
  cacheMaxBytes: number;
  logger: Logger;
}

/** An error answer in the services' shape, from the gateway itself. */
function sendError(res: ServerResponse, status: number, code: 'NOT_FOUND' | 'SERVICE_UNAVAILABLE') {
  const body = JSON.stringify({ code, message: errorMessagesJa[code] });
  for (const name of ['accept-ranges', 'content-range', 'etag', 'content-type']) res.removeHeader(name);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(body));
  res.setHeader('cache-control', 'no-store');
  res.end(body);
}

class Refusal {
  constructor(
    readonly status: number,
    readonly contentType: string,
    readonly body: Buffer,
  ) {}
}

export function createVideoServer(opts: VideoOptions) {
  const { logger } = opts;
  const access = new AccessCache<VideoEntry>(opts.accessEntries);
  const checking = new Map<string, Promise<VideoEntry | Refusal>>();
  const filesUrl = opts.filesUrl.replace(/\/$/, '');
  const counts = { checks: 0, reads: 0 };
  // Kept-alive connections to the storage, each reading in large chunks; idle ones closed well before the storage's.
  const agentOptions = { keepAlive: true, timeout: IDLE_UPSTREAM_MS, scheduling: 'lifo' as const };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  const reads = createStorageReads({ idleMs: IDLE_UPSTREAM_MS, timeoutMs: opts.timeoutMs });
  const cache = createVideoCache({ dir: opts.cacheDir, maxBytes: opts.cacheMaxBytes, reads, logger });

  /** file-conversion's decision for this caller and file: a yes (kept while allowed) or its refusal, as it came. */
  const decide = (
    caller: VideoCaller,
    identity: string | undefined,
    fileId: string,
    preview: boolean,
    requestId: string | undefined,
  ): Promise<VideoEntry | Refusal> => {
    const cacheKey = `${caller.key}\u0000${fileId}\u0000${preview ? 'p' : 'v'}`;
    const kept = access.get(cacheKey);
    if (kept) return Promise.resolve(kept);
    let pending = checking.get(cacheKey);
    if (pending) return pending;
    const generation = access.generation;
    pending = (async () => {
      counts.checks++;
      const res = await fetch(`${filesUrl}${internalVideoAccessPath(fileId, preview)}`, {
        headers: {
          ...(identity ? { [IDENTITY_HEADER]: identity } : {}),
          ...(requestId ? { 'x-request-id': requestId } : {}),
        },
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200)
        return new Refusal(res.status, res.headers.get('content-type') ?? 'application/json; charset=utf-8', body);
      const answer = VideoAccessAnswer.parse(JSON.parse(body.toString('utf8')));
      const entry: VideoEntry = {
        // a granted answer: which kind matters only to the page images' cache
        access: 'owner',
        subject: caller.subject,
        fileId,
        ...(caller.screenId ? { screenId: caller.screenId } : {}),
        answer,
        preview,
      };
      // An answer asked before an event that may change it is used once, not remembered (events about other
      // members' files, which a busy gateway hears all the time, leave it be).
      if (!access.forgotSince(generation, entry))
        access.set(cacheKey, entry, Math.min(answer.maxAgeMs, opts.accessMaxMs));
      return entry;
    })().finally(() => checking.delete(cacheKey));
    checking.set(cacheKey, pending);
    return pending;
  };

  /** The storage did not give the range: 404 when the object is gone (asked afresh next time), else 502. */
  const unread = (res: ServerResponse, entry: VideoEntry, status: number, forget: () => void) => {
    forget();
    if (status !== 404) logger.warn({ status, fileId: entry.fileId }, 'video read: storage answered otherwise');
    if (res.headersSent) res.destroy();
    else if (status === 404) sendError(res, 404, 'NOT_FOUND');
    else sendError(res, 502, 'SERVICE_UNAVAILABLE');
  };

  /**
   * Streams bytes start..end of the object to the answer whose head is set; a storage failure ends it. Over http,
   * each chunk of the storage's answer goes straight to the client's socket (storage-reads.ts says why).
   */
  const stream = (
    res: ServerResponse,
    entry: VideoEntry,
    status: number,
    start: number,
    end: number,
    forget: () => void,
    cached = true,
  ) => {
    const url = new URL(entry.answer.url);
    const video = entry.answer;
    // a local copy of this very version (decided just now, like any read); none: storage, and maybe a fill begins
    const fileId = entry.fileId;
    const local =
      cached && fileId
        ? cache.lookup({ fileId, preview: entry.preview, etag: video.etag, size: video.size }, url)
        : undefined;
    if (local) {
      cache.send(res, local, status, start, end, () => stream(res, entry, status, start, end, forget, false));
      return;
    }
    const length = end - start + 1;
    counts.reads++;
    const out = res.socket;
    if (url.protocol === 'http:' && out) {
      const abandon = reads.read(url, start, end, {
        head(got, size) {
          if (got !== 206 || size !== length) {
            unread(res, entry, got, forget);
            return false;
          }
          res.statusCode = status;
          res.setHeader('content-length', length);
          // the head now, through the response; the body then straight to the socket, after it
          res.flushHeaders();
          return true;
        },
        data(chunk, next) {
          let flushed = false;
          out.write(chunk, () => {
            if (!flushed) next();
          });
          // taken by the kernel at once: the buffer is free again; otherwise when the write completes
          if (out.writableLength === 0) {
            flushed = true;
            next();
          }
        },
        end() {
          res.end();
        },
        error(err) {
          // the player left first: nothing to tell
          if (res.destroyed) return;
          logger.warn({ err, fileId: entry.fileId }, 'video read failed');
          if (res.headersSent) res.destroy();
          else sendError(res, 502, 'SERVICE_UNAVAILABLE');
        },
      });
      // the player moved on (a seek, a closed tab): stop reading
      res.on('close', () => {
        if (!res.writableFinished) abandon();
      });
      return;
    }
    const upstream = (url.protocol === 'https:' ? https : http).request(url, {
      agent: url.protocol === 'https:' ? agents.https : agents.http,
      headers: { range: `bytes=${start}-${end}` },
      timeout: opts.timeoutMs,
    });
    upstream.on('response', (body) => {
      if (body.statusCode !== 206 || Number(body.headers['content-length']) !== length) {
        body.resume();
        unread(res, entry, body.statusCode ?? 502, forget);
        return;
      }
      res.statusCode = status;
      res.setHeader('content-length', length);
      body.on('error', (err) => {
        logger.warn({ err, fileId: entry.fileId }, 'video stream failed');
        res.destroy(err);
      });
      body.pipe(res);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('storage read timed out')));
    upstream.on('error', (err) => {
      logger.warn({ err, fileId: entry.fileId }, 'video read failed');
      if (res.headersSent) res.destroy();
      else sendError(res, 502, 'SERVICE_UNAVAILABLE');
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.end();
  };

  /**
   * Answers GET/HEAD /media/video/<fileId>[/preview] for a caller the gateway has verified and may forward, with the
   * identity header it would have forwarded.
   */
  const serve = async (
    req: IncomingMessage,
    res: ServerResponse,
    caller: VideoCaller,
    identity: string | undefined,
    fileId: string,
    preview: boolean,
  ): Promise<void> => {
    const requestId = typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'] : undefined;
    const decided = await decide(caller, identity, fileId, preview, requestId);
    if (decided instanceof Refusal) {
      res.statusCode = decided.status;
      res.setHeader('content-type', decided.contentType);
      res.setHeader('content-length', decided.body.length);
      res.setHeader('cache-control', 'no-store');
      res.end(decided.body);
      return;
    }
    const video = decided.answer;
    res.setHeader('accept-ranges', 'bytes');
    res.setHeader('content-type', video.mimeType);
    res.setHeader('cache-control', video.cacheControl);
    res.setHeader('etag', video.etag);
    if (req.headers['if-none-match'] === video.etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    const ifRange = req.headers['if-range'];
    const range = ifRange && ifRange !== video.etag ? undefined : parseRange(req.headers.range, video.size);
    if (range === 'unsatisfiable') {
      res.setHeader('content-range', `bytes */${video.size}`);
      res.statusCode = 416;
      res.end();
      return;
    }
    const part = range ?? { start: 0, end: video.size - 1 };
    if (range) res.setHeader('content-range', `bytes ${part.start}-${part.end}/${video.size}`);
    if (req.method === 'HEAD' || video.size === 0) {
      res.statusCode = range ? 206 : 200;
      res.setHeader('content-length', part.end - part.start + 1);
      res.end();
      return;
    }
    const forget = () => access.forget((e) => e === decided);
    stream(res, decided, range ? 206 : 200, part.start, part.end, forget);
  };

  /** serve, answering 503/502 when file-conversion cannot be asked (as the proxy did) */
  const handle = (
    req: IncomingMessage,
    res: ServerResponse,
    caller: VideoCaller,
    identity: string | undefined,
    fileId: string,
    preview: boolean,
  ) => {
    serve(req, res, caller, identity, fileId, preview).catch((err: unknown) => {
      const code = ((err as { cause?: { code?: string } }).cause?.code ?? '') as string;
      logger.warn({ err, fileId, code }, 'video: file-conversion failed');
      if (res.headersSent) res.destroy();
      else sendError(res, code === 'ECONNREFUSED' || code === 'ENOTFOUND' ? 503 : 502, 'SERVICE_UNAVAILABLE');
    });
  };

  return {
    handle,
    access,
    counts,
    reads,
    cache,
    onEvent(event: AnyEvent) {
      forgetDecisions(access, event);
      // a deleted file's copies free their room now (a kept copy is never served without a yes for its version)
      if (event.type === subjects.fileDeleted) cache.forgetFile(event.data.fileId);
    },
    close() {
      reads.close();
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

export type VideoServer = ReturnType<typeof createVideoServer>;
