// The two caches of the page-image path (media.ts): who may see an image, and the images' bytes.
import { type AnyEvent, subjects } from '@pagecast/contracts';
import { LRUCache } from 'lru-cache';

export interface AccessEntry {
  access: 'owner' | 'licence' | null;
  /** whose rule applied: the member, or a display's owner (events about them drop the entry) */
  subject: string;
  /** a display's screen (its new content drops the entry) */
  screenId?: string;
  /** the one file the answer is about (a video's): its change or deletion drops the entry, whoever asked */
  fileId?: string;
}

/**
 * (caller, image or video) → access, each entry until the end file-conversion granted; bounded, least recently used
 * out.
 */
export class AccessCache<E extends AccessEntry = AccessEntry> {
  private readonly lru: LRUCache<string, E>;
  /** bumped by every forget, so an answer asked before one is not stored after it */
  generation = 0;

  constructor(max: number) {
    this.lru = new LRUCache({ max });
  }

  get(key: string): E | undefined {
    return this.lru.get(key);
  }

  /** Kept for `ms` (nothing kept for 0). */
  set(key: string, entry: E, ms: number): void {
    if (ms > 0) this.lru.set(key, entry, { ttl: ms });
  }

  /** the latest forgets, newest last, so an answer asked before one can tell whether it was meant */
  private readonly recent: Array<{ generation: number; test: (entry: E) => boolean }> = [];

  forget(test: (entry: E) => boolean): number {
    this.generation++;
    this.recent.push({ generation: this.generation, test });
    if (this.recent.length > RECENT_FORGETS) this.recent.shift();
    const gone = [...this.lru.entries()].filter(([, entry]) => test(entry)).map(([key]) => key);
    for (const key of gone) this.lru.delete(key);
    return gone.length;
  }

  /**
   * Whether a forget since `generation` would have dropped `entry` (true when too many came to tell): an answer asked
   * before an event about it is used once, not remembered, while events about others leave it be.
   */
  forgotSince(generation: number, entry: E): boolean {
    if (generation === this.generation) return false;
    const first = this.recent[0];
    if (!first || first.generation > generation + 1) return true;
    return this.recent.some((f) => f.generation > generation && f.test(entry));
  }

  get size(): number {
    return this.lru.size;
  }
}

/** how many forgets are remembered for forgotSince: many more than arrive while one access check is answered */
const RECENT_FORGETS = 256;

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

/** Drops the decisions an event may have changed (media.ts says which). */
export function forgetDecisions<E extends AccessEntry>(access: AccessCache<E>, event: AnyEvent): void {
  switch (event.type) {
    case subjects.fileDeleted:
    case subjects.fileUpdated: {
      const { ownerId, fileId } = event.data;
      access.forget((e) => e.subject === ownerId || e.fileId === fileId);
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
    // one change to many screens (a group's content, a bulk change, a takeover, unpairing): a group can
    // lose a file, so each named display's decisions go, as after a change of its own screen
    case subjects.fleetChanged: {
      const screens = new Set(event.data.screenIds);
      access.forget((e) => e.screenId !== undefined && screens.has(e.screenId));
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
}
