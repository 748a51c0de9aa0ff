// The gateway's edge cache of videos: local copies of the stored objects that displays read again and again (a
// signage playlist loops over the same few videos), so that their ranges are read from a local file instead of from
// object storage. Measured on this machine (gateway/README.md, the video bench): a 4 MiB range from MinIO waited 6-74 ms for its first
// byte and cost MinIO 1.1-1.3 ms of CPU per MiB, which held the gateway to 0.36-0.50x of nginx serving a file;
// from a local file the same range costs two system calls per MiB, and the gateway matched nginx.
//
// It holds bytes, never a yes: every request is decided by file-conversion exactly as before (media-video.ts), and
// only then does the answer's version (its ETag, the stored bytes' sha256, and its size) name the local copy. So
// a replaced file is another name, never the old bytes, and a refused caller never reaches the copy.
//
// - Fill: the first read of a version starts one fill (later reads of it share it) that copies the whole object
//   from storage into `<name>.<random>.part`, checks the bytes against the ETag's sha256 when the ETag is one,
//   syncs, then renames it to its name: a half-written or wrong copy is never served (the hash costs the gateway
//   about 1.4 ms of CPU per MiB, once per version; fed chunk by chunk as the bytes arrive, so requests run between
//   chunks: gateway/bench/video-cache-stall.mjs). At most MAX_FILLS run at once. The fill goes on when the
//   reader that started it leaves; while it runs, reads of that version go to storage as before.
// - Bound: at most `maxBytes` on disk, copies in progress counted; the least recently read copies are removed first
//   (a reader that has one open keeps reading it: the file stays until it is closed); the index is an lru-cache
//   bounded by bytes, whose dispose removes the file. A video larger than the bound is never copied.
// - Failure: a directory that cannot be created, a full disk, any write error: the read goes to storage, the reason
//   is logged once, and fills pause for a while. The cache never fails a request.
// - Restart: copies left by an earlier run are kept (their names carry their version); unfinished ones are removed.
//
// A hit is sent by reading the file into a 1 MiB buffer taken from a bounded pool and writing it to the client's
// socket, the next read waiting until the kernel has taken the last write: two system calls per MiB, no allocation
// (compared on the same file with fs.createReadStream piped into the answer: about the same rate, a new buffer per
// chunk for the collector; a synchronous read loop was slower).
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { Logger } from './log';
import type { StorageReads } from './storage-reads';

/**
 * One read and one socket write from a copy: 1 MiB took the gateway 0.45 ms of CPU per MiB served in the bench,
 * 256 KiB 0.70 (fewer system calls and wake-ups per byte).
 */
const CHUNK_BYTES = 1024 * 1024;
/**
 * At most this many 1 MiB buffers exist (32 MiB, reused from hit to hit); readers beyond them at once (a fleet
 * starting together) read through a buffer of SMALL_CHUNK_BYTES of their own, so memory stays bounded.
 */
const POOL_MAX = 32;
const SMALL_CHUNK_BYTES = 128 * 1024;
/**
 * Copies made at once: a fleet starting on many videos copies a few at a time (the others' reads go to storage and
 * start theirs later), so the storage and the disk are not asked for everything together.
 */
const MAX_FILLS = 4;
/** How long fills pause after the directory or the disk failed. */
const PAUSE_AFTER_FAILURE_MS = 60_000;
/** How long one version is not copied again after its fill failed (storage error, bytes not matching). */
const RETRY_VERSION_MS = 30_000;
/** Errors of the directory or the disk (not of one copy): fills pause. */
const DISK_FAILURES = new Set(['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EROFS', 'ENOENT', 'ENOTDIR', 'EIO']);
const COPY_NAME = /^([A-Za-z0-9_-]{1,80})\.([vp])\.([0-9a-f]{40})\.video$/;

/** Which bytes: a stored video (or its preview clip) at one version. */
export interface VideoVersion {
  fileId: string;
  preview: boolean;
  /** the access answer's ETag, `"<sha256>"` of the stored bytes */
  etag: string;
  size: number;
}

interface Copy {
  size: number;
  fileId: string;
}

export interface VideoCacheOptions {
  /** where the copies are kept; created when missing */
  dir: string;
  /** the most bytes on disk; 0: no cache */
  maxBytes: number;
  /** the storage reads the fills use (plain http endpoints; an https one is never copied) */
  reads: StorageReads;
  logger: Logger;
}

const safeId = (fileId: string) =>
  /^[A-Za-z0-9_-]{1,80}$/.test(fileId) ? fileId : createHash('sha256').update(fileId).digest('hex').slice(0, 64);

/** A copy's file name: the file, the kind, and a digest of the version (ETag and size). */
export function copyName(v: VideoVersion): string {
  const version = createHash('sha256').update(`${v.etag}\u0000${v.size}`).digest('hex').slice(0, 40);
  return `${safeId(v.fileId)}.${v.preview ? 'p' : 'v'}.${version}.video`;
}

export function createVideoCache(opts: VideoCacheOptions) {
  const { logger, reads, maxBytes } = opts;
  const dir = path.resolve(opts.dir);
  const fills = new Map<string, Promise<void>>();
  const failedAt = new Map<string, number>();
  /** `sending`: hits holding a read buffer now (one back when its last read or write is done) */
  const stats = {
    hits: 0,
    fills: 0,
    filled: 0,
    failed: 0,
    evicted: 0,
    sending: 0,
    /** the complete copies' bytes on disk */
    get bytes() {
      return copies.calculatedSize;
    },
  };
  /**
   * The complete copies by name, least recently read evicted first. A copy leaving the index leaves the disk; a
   * reader that has it open finishes it (the file is unlinked, not truncated). Copies being made are not in it:
   * makeRoom counts them beside it.
   */
  const copies = new LRUCache<string, Copy>({
    // lru-cache needs a positive bound; with maxBytes 0 nothing is ever kept
    maxSize: Math.max(1, maxBytes),
    sizeCalculation: (copy) => copy.size,
    // a name is set once, after its rename: a replaced entry's file is the new one
    noDisposeOnSet: true,
    dispose: (_copy, name, reason) => {
      if (reason === 'evict') stats.evicted++;
      fsp.rm(path.join(dir, name), { force: true }).catch(() => {});
    },
  });
  let reserved = 0;
  let pausedUntil = 0;
  const logged = new Set<string>();
  const pool: Buffer[] = [];
  let bigBuffers = 0;
  const take = () => {
    stats.sending++;
    const kept = pool.pop();
    if (kept) return kept;
    if (bigBuffers >= POOL_MAX) return Buffer.allocUnsafeSlow(SMALL_CHUNK_BYTES);
    bigBuffers++;
    return Buffer.allocUnsafeSlow(CHUNK_BYTES);
  };
  const release = (buffer: Buffer) => {
    stats.sending--;
    if (buffer.length === CHUNK_BYTES) pool.push(buffer);
  };

  /** A failure of the directory or the disk: logged once per kind, fills paused. */
  const diskFailed = (err: NodeJS.ErrnoException, what: string) => {
    pausedUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
    const kind = `${what}:${err.code ?? err.message}`;
    if (logged.has(kind)) return;
    logged.add(kind);
    logger.warn({ err, dir }, `video cache: ${what} failed; videos are read from storage meanwhile`);
  };

  const fits = (more: number) => copies.calculatedSize + reserved + more <= maxBytes;
  /** Removes the least recently read copies until `more` bytes fit beside the fills running; false when they cannot. */
  const makeRoom = (more: number) => {
    while (!fits(more) && copies.size > 0) copies.pop();
    return fits(more);
  };

  // The directory, and the copies an earlier run left (oldest first, by when they were written).
  const ready: Promise<boolean> =
    maxBytes <= 0
      ? Promise.resolve(false)
      : (async () => {
          try {
            await fsp.mkdir(dir, { recursive: true });
            const found: { name: string; size: number; fileId: string; at: number }[] = [];
            for (const name of await fsp.readdir(dir)) {
              if (name.endsWith('.part')) {
                await fsp.rm(path.join(dir, name), { force: true });
                continue;
              }
              const m = COPY_NAME.exec(name);
              if (!m) continue;
              const st = await fsp.stat(path.join(dir, name));
              if (!st.isFile()) continue;
              // an empty copy is never read (lookup passes over size 0) and has no size to count
              if (st.size === 0) await fsp.rm(path.join(dir, name), { force: true });
              else found.push({ name, size: st.size, fileId: m[1] as string, at: st.mtimeMs });
            }
            found.sort((a, b) => a.at - b.at);
            for (const f of found) {
              // lru-cache would leave one larger than the whole bound out, its file kept: removed as evicted
              if (f.size > maxBytes) {
                stats.evicted++;
                await fsp.rm(path.join(dir, f.name), { force: true });
              } else copies.set(f.name, { size: f.size, fileId: f.fileId }); // beyond the bound the oldest go
            }
            return true;
          } catch (err) {
            diskFailed(err as NodeJS.ErrnoException, 'opening the directory');
            return false;
          }
        })();
  let usable = false;
  ready.then((ok) => {
    usable = ok;
  });

  /** Copies the object at `url` into the cache under `name`; never throws. */
  const fill = async (name: string, v: VideoVersion, url: URL) => {
    stats.fills++;
    reserved += v.size;
    const part = path.join(dir, `${name}.${randomUUID()}.part`);
    let file: fsp.FileHandle | undefined;
    let abandon = () => {};
    try {
      file = await fsp.open(part, 'wx', 0o600);
      const out = file;
      // the ETag is the bytes' sha256: a copy of anything else (the object replaced meanwhile) is thrown away
      const sha = /^"([0-9a-f]{64})"$/.exec(v.etag)?.[1];
      const hash = sha ? createHash('sha256') : undefined;
      await new Promise<void>((resolve, reject) => {
        let at = 0;
        abandon = reads.read(url, 0, v.size - 1, {
          head(status, length) {
            if (status !== 206 || length !== v.size) {
              reject(new Error(`storage answered ${status} with ${length} bytes for ${v.size}`));
              return false;
            }
            return true;
          },
          data(chunk, next) {
            hash?.update(chunk);
            const write = async () => {
              for (let done = 0; done < chunk.length; ) {
                const { bytesWritten } = await out.write(chunk, done, chunk.length - done, at + done);
                done += bytesWritten;
              }
              at += chunk.length;
            };
            write().then(next, (err: unknown) => {
              abandon();
              reject(err);
            });
          },
          end: resolve,
          error: reject,
        });
      });
      if (hash && hash.digest('hex') !== sha) throw new Error('the stored bytes differ from their ETag');
      await file.datasync();
      await file.close();
      file = undefined;
      await fsp.rename(part, path.join(dir, name));
      copies.set(name, { size: v.size, fileId: safeId(v.fileId) });
      stats.filled++;
    } catch (err) {
      stats.failed++;
      abandon();
      await file?.close().catch(() => {});
      await fsp.rm(part, { force: true }).catch(() => {});
      const code = (err as NodeJS.ErrnoException).code;
      if (code && DISK_FAILURES.has(code)) diskFailed(err as NodeJS.ErrnoException, 'writing a copy');
      else {
        failedAt.set(name, Date.now());
        logger.warn({ err, fileId: v.fileId }, 'video cache: a copy failed; read from storage');
      }
    } finally {
      reserved -= v.size;
    }
  };

  /**
   * The path of the complete copy of this version (marked as just read), or undefined; then a fill starts when none
   * runs and the version fits, and the caller reads storage as before.
   */
  const lookup = (v: VideoVersion, url: URL): string | undefined => {
    if (!usable || v.size === 0) return undefined;
    const name = copyName(v);
    // get marks it as just read
    if (copies.get(name)) {
      stats.hits++;
      return path.join(dir, name);
    }
    if (fills.has(name) || fills.size >= MAX_FILLS || url.protocol !== 'http:' || v.size > maxBytes) return undefined;
    const now = Date.now();
    if (now < pausedUntil || now - (failedAt.get(name) ?? Number.NEGATIVE_INFINITY) < RETRY_VERSION_MS)
      return undefined;
    failedAt.delete(name);
    if (!makeRoom(v.size)) return undefined;
    const running = fill(name, v, url).finally(() => fills.delete(name));
    fills.set(name, running);
    return undefined;
  };

  /**
   * Sends bytes start..end of a copy to the answer (status and headers set, but for Content-Length). When the copy
   * cannot be opened (removed meanwhile), `fallback` is called instead, nothing sent.
   */
  const send = (
    res: ServerResponse,
    file: string,
    status: number,
    start: number,
    end: number,
    fallback: () => void,
  ) => {
    fs.open(file, 'r', (err, fd) => {
      if (err) {
        copies.delete(path.basename(file));
        fallback();
        return;
      }
      const out = res.socket;
      if (!out || res.destroyed) {
        fs.close(fd, () => {});
        return;
      }
      res.statusCode = status;
      res.setHeader('content-length', end - start + 1);
      res.flushHeaders();
      let buffer: Buffer | undefined = take();
      const size = buffer.length;
      let at = start;
      let reading = false;
      let writing = false;
      let closed = false;
      let open = true;
      // the file is closed once no read uses it, the buffer given back once no read or write holds it
      const settle = () => {
        if (!closed || reading) return;
        if (open) {
          open = false;
          fs.close(fd, () => {});
        }
        if (!writing && buffer) {
          release(buffer);
          buffer = undefined;
        }
      };
      const finish = () => {
        closed = true;
        settle();
      };
      const step = () => {
        if (closed || !buffer) return;
        if (at > end) {
          res.end();
          finish();
          return;
        }
        const chunk = buffer;
        reading = true;
        fs.read(fd, chunk, 0, Math.min(size, end - at + 1), at, (readErr, got) => {
          reading = false;
          if (closed || res.destroyed) {
            finish();
            return;
          }
          if (readErr || got === 0) {
            logger.warn({ err: readErr, file }, 'video cache: a copy could not be read');
            copies.delete(path.basename(file));
            res.destroy();
            finish();
            return;
          }
          at += got;
          let taken = false;
          writing = true;
          out.write(got === size ? chunk : chunk.subarray(0, got), () => {
            if (taken) return;
            taken = true;
            writing = false;
            if (closed) settle();
            else step();
          });
          // taken by the kernel at once: read the next chunk now
          if (!taken && out.writableLength === 0) {
            taken = true;
            writing = false;
            step();
          }
        });
      };
      res.on('close', finish);
      step();
    });
  };

  return {
    lookup,
    send,
    stats,
    /** whether the directory is in use (false until it is ready, or when it failed) */
    get usable() {
      return usable;
    },
    ready,
    dir,
    /** every fill now running, settled (tests) */
    settled: () => Promise.all([...fills.values()]).then(() => {}),
    /** drops every copy of a deleted file */
    forgetFile(fileId: string) {
      const id = safeId(fileId);
      const gone = [...copies.entries()].filter(([, copy]) => copy.fileId === id);
      for (const [name] of gone) copies.delete(name);
    },
  };
}

export type VideoCache = ReturnType<typeof createVideoCache>;
