import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { open, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';

interface Spool {
  path: string;
  /** bytes 0..end-1 are on disk and are what the store accepted */
  end: number;
  timer: NodeJS.Timeout;
}

/**
 * This instance's copy of the resumable uploads whose chunks it received, written as the bytes pass on to the store:
 * when every byte of an upload came through here (the usual case), finishing reads it from disk instead of reading
 * the whole object back from S3. A copy is only ever what the store accepted, from offset 0 with no gap: a chunk
 * that went to another instance, a write that failed or that the store took only in part drops it, and the upload
 * is read back from S3 as before. A copy not written to for `idleMs` (its upload went on elsewhere, or was
 * abandoned) is removed.
 */
export class UploadSpool {
  private readonly spools = new Map<string, Spool>();
  /** where the copies are (one file an upload) */
  readonly dir: string;

  constructor(private readonly idleMs = 10 * 60_000) {
    this.dir = join(tmpdir(), `pagecast-tus-spool-${process.pid}-${randomUUID().slice(0, 8)}`);
    mkdirSync(this.dir, { recursive: true });
  }

  /**
   * The chunk at `offset` of upload `id` as a stream that also writes each byte to the copy before passing it on.
   * `settle` is told how far the store got (its new offset, or undefined when it failed). A chunk that does not
   * continue the copy (another instance took the one before, or no copy began at 0) passes through untouched.
   */
  tee(id: string, src: Readable, offset: number): { stream: Readable; settle: (newOffset?: number) => void } {
    let spool = this.spools.get(id);
    if (!spool && offset === 0) {
      spool = { path: join(this.dir, randomUUID()), end: 0, timer: this.idleTimer(id) };
      this.spools.set(id, spool);
    }
    if (!spool || offset > spool.end) {
      this.drop(id);
      return { stream: src, settle: () => {} };
    }
    const current = spool;
    this.touch(id, current);
    let position = offset;
    let broken = false;
    const handle = open(current.path, current.end === 0 && offset === 0 ? 'w' : 'r+');
    const stream = new Transform({
      transform(chunk: Buffer, _enc, done) {
        handle
          .then((fh) => fh.write(chunk, 0, chunk.length, position))
          .then(
            () => {
              position += chunk.length;
              done(null, chunk);
            },
            (err: unknown) => {
              // the disk failed us, not the upload: the bytes go on to the store, the copy is dropped
              broken = true;
              done(null, chunk);
              void err;
            },
          );
      },
    });
    src.on('error', (err) => stream.destroy(err));
    src.pipe(stream);
    const settle = (newOffset?: number) => {
      void handle.then((fh) => fh.close()).catch(() => {});
      if (this.spools.get(id) !== current) return;
      // the copy holds what the store holds only if it took every byte that passed and nothing failed
      if (broken || newOffset === undefined || newOffset > position || newOffset < offset) this.drop(id);
      else current.end = newOffset;
    };
    return { stream, settle };
  }

  /**
   * The whole upload on this machine's disk, when it all came through here: the path, now the caller's (to remove).
   * Undefined otherwise (read it from the store).
   */
  async take(id: string, size: number): Promise<string | undefined> {
    const spool = this.spools.get(id);
    if (!spool) return undefined;
    clearTimeout(spool.timer);
    this.spools.delete(id);
    if (spool.end !== size) {
      await rm(spool.path, { force: true });
      return undefined;
    }
    // bytes past the end a refused write left behind are not the upload's
    await truncate(spool.path, size);
    return spool.path;
  }

  /** Forgets an upload's copy and removes it from disk. */
  drop(id: string): void {
    const spool = this.spools.get(id);
    if (!spool) return;
    clearTimeout(spool.timer);
    this.spools.delete(id);
    void rm(spool.path, { force: true });
  }

  /** Removes every copy (the service stops). */
  clear(): void {
    for (const id of [...this.spools.keys()]) this.drop(id);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private idleTimer(id: string): NodeJS.Timeout {
    const timer = setTimeout(() => this.drop(id), this.idleMs);
    timer.unref();
    return timer;
  }

  private touch(id: string, spool: Spool): void {
    clearTimeout(spool.timer);
    spool.timer = this.idleTimer(id);
  }
}
