import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import type { FromWorker, ToWorker } from './render-protocol.ts';

// libvips' operation cache would keep decoded inputs alive; every page is encoded once.
sharp.cache(false);

export interface RenderPoolOptions {
  /**
   * Workers; default: one per core, so as many files as cores draw at once (a worker draws with pdfjs on its
   * thread while sharp encodes its previous pages on libuv's threads).
   */
  size?: number;
  /** V8 heap limit per worker; a hostile file that exhausts it kills only that worker. */
  maxHeapMb?: number;
  /** Do not keep the process alive for idle workers (the lazily made default pool). */
  unref?: boolean;
}

/** One worker thread; a job owns it between acquire() and release()/discard(). */
export class RenderSlot {
  worker: Worker;
  onMessage: ((msg: FromWorker) => void) | undefined;
  onCrash: ((err: Error) => void) | undefined;
  dead = false;

  constructor(worker: Worker) {
    this.worker = worker;
    worker.on('message', (msg: FromWorker) => this.onMessage?.(msg));
    worker.on('error', (err) => this.crash(err));
    worker.on('exit', (code) => this.crash(new Error(`render worker exited with code ${code}`)));
  }

  private crash(err: Error) {
    if (this.dead) return;
    this.dead = true;
    this.onCrash?.(err);
  }

  send(msg: ToWorker) {
    this.worker.postMessage(msg);
  }
}

/**
 * A fixed set of render workers shared by all conversions of the process. Jobs wait in FIFO order for a worker;
 * a job may borrow idle workers to render its pages in parallel.
 */
export class RenderPool {
  readonly size: number;
  private readonly maxHeapMb: number;
  private readonly unref: boolean;
  private readonly all = new Set<RenderSlot>();
  private readonly idle: RenderSlot[] = [];
  private readonly waiters: ((slot: RenderSlot) => void)[] = [];
  private closed = false;

  constructor(opts: RenderPoolOptions = {}) {
    this.size = Math.max(1, opts.size ?? availableParallelism());
    this.maxHeapMb = opts.maxHeapMb ?? 1024;
    this.unref = opts.unref ?? false;
    for (let i = 0; i < this.size; i++) this.idle.push(this.spawn());
  }

  private spawn(): RenderSlot {
    const worker = new Worker(new URL('./render-worker.ts', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb },
    });
    if (this.unref) worker.unref();
    const slot = new RenderSlot(worker);
    this.all.add(slot);
    // An idle worker that dies is replaced at once.
    slot.onCrash = () => this.replace(slot);
    return slot;
  }

  acquire(): Promise<RenderSlot> {
    if (this.closed) return Promise.reject(new Error('render pool closed'));
    const slot = this.idle.shift();
    if (slot) return Promise.resolve(slot);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** An idle worker only if no job is waiting for one: helpers never jump the queue. */
  tryAcquire(): RenderSlot | undefined {
    if (this.closed || this.waiters.length > 0) return undefined;
    return this.idle.shift();
  }

  release(slot: RenderSlot): void {
    if (slot.dead) {
      this.replace(slot);
      return;
    }
    slot.onMessage = undefined;
    slot.onCrash = () => this.replace(slot);
    this.give(slot);
  }

  /** Terminates a worker that may be busy (timeout, failed job) and puts a fresh one in its place. */
  discard(slot: RenderSlot): void {
    slot.onMessage = undefined;
    slot.onCrash = undefined;
    slot.dead = true;
    void slot.worker.terminate();
    this.replace(slot);
  }

  private replace(slot: RenderSlot) {
    const i = this.idle.indexOf(slot);
    if (i >= 0) this.idle.splice(i, 1);
    slot.dead = true;
    this.all.delete(slot);
    if (this.closed) return;
    this.give(this.spawn());
  }

  private give(slot: RenderSlot) {
    if (this.closed) {
      void slot.worker.terminate();
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) waiter(slot);
    else this.idle.push(slot);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.idle.splice(0);
    const all = [...this.all];
    this.all.clear();
    await Promise.all(
      all.map((s) => {
        s.onCrash = undefined;
        s.dead = true;
        return s.worker.terminate();
      }),
    );
  }
}
