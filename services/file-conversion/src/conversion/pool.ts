import type { ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import sharp from 'sharp';
import { killGroup } from './process-group.ts';

// libvips' operation cache would keep decoded inputs alive; every page is encoded once.
sharp.cache(false);

export interface RenderPoolOptions {
  /**
   * Documents drawn at once by this process; default: one per core. Each has its own MuPDF process, which draws in
   * about a tenth of the time sharp then takes to encode the page, so one per core keeps the encoder fed.
   */
  size?: number;
  /** Address-space limit of each MuPDF process (prlimit --as): a hostile file that exhausts it ends only that one. */
  maxMemoryMb?: number;
}

/** One document's right to run a renderer; given back with RenderPool.release. */
export interface RenderSlot {
  /** The renderer process while it runs, so that close() can stop it. */
  child?: ChildProcess;
}

/**
 * Bounds the renderer processes of one service process: jobs wait in FIFO order for a slot, and close() stops
 * every renderer still running (shutdown, tests).
 */
export class RenderPool {
  readonly size: number;
  readonly maxMemoryMb: number;
  private readonly busy = new Set<RenderSlot>();
  private readonly waiters: { resolve: (slot: RenderSlot) => void; reject: (err: Error) => void }[] = [];
  private closed = false;

  constructor(opts: RenderPoolOptions = {}) {
    this.size = Math.max(1, opts.size ?? availableParallelism());
    this.maxMemoryMb = opts.maxMemoryMb ?? 1536;
  }

  acquire(): Promise<RenderSlot> {
    if (this.closed) return Promise.reject(new Error('render pool closed'));
    if (this.busy.size < this.size) {
      const slot: RenderSlot = {};
      this.busy.add(slot);
      return Promise.resolve(slot);
    }
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  release(slot: RenderSlot): void {
    if (!this.busy.delete(slot)) return;
    slot.child = undefined;
    const waiter = this.waiters.shift();
    if (!waiter) return;
    const next: RenderSlot = {};
    this.busy.add(next);
    waiter.resolve(next);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w.reject(new Error('render pool closed'));
    for (const slot of this.busy) killGroup(slot.child);
  }
}
