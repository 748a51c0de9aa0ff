import { rm } from 'node:fs/promises';

/**
 * Uploads that just arrived, still on this machine's disk: a worker of the same process converts from there
 * instead of downloading the original again. A job taken by another process leaves the copy to expire.
 */
export class LocalOriginals {
  private readonly paths = new Map<string, { path: string; timer: NodeJS.Timeout }>();
  constructor(private readonly ttlMs = 10 * 60_000) {}

  put(fileId: string, path: string): void {
    this.release(fileId);
    const timer = setTimeout(() => this.release(fileId), this.ttlMs);
    timer.unref();
    this.paths.set(fileId, { path, timer });
  }

  get(fileId: string): string | undefined {
    return this.paths.get(fileId)?.path;
  }

  /** Forgets the copy and removes it from disk. */
  release(fileId: string): void {
    const hit = this.paths.get(fileId);
    if (!hit) return;
    clearTimeout(hit.timer);
    this.paths.delete(fileId);
    void rm(hit.path, { force: true });
  }

  clear(): void {
    for (const id of [...this.paths.keys()]) this.release(id);
  }
}
