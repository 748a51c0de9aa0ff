// What the display keeps for a network cut (page images and whole videos) and what it drops to stay under its cap,
// as plain functions over the worker's index (unit-tested; sw.ts keeps the index and applies them).
//
// Assigned: what the screen's manifest may play (its own assignment, its groups', its takeovers: every day part, not
// only what plays now), as the display names it (keepForOffline in register.ts). Content no longer assigned is
// dropped first, the one assigned longest ago first; assigned content is never dropped to make room for anything.

/** The default cap, in MiB, when the build names none (PLAYER_CACHE_MB): room for a playlist of long HD videos. */
export const DEFAULT_CACHE_MB = 4096;
/**
 * At most this share of the origin's quota (navigator.storage.estimate()): Chromium gives an origin up to 60 % of
 * the disk and, when the disk runs low, drops an origin's storage whole, the app's own code and reads too; half
 * leaves room for those and for other origins on a small player's disk.
 */
export const QUOTA_SHARE = 0.5;

/** The cap in bytes: the configured MiB (else the default), and no more than QUOTA_SHARE of a known quota. */
export function cacheCapBytes(configuredMb: string | undefined, quota: number | undefined): number {
  const mb = Number(configuredMb);
  const fixed = (Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_CACHE_MB) * 1024 * 1024;
  return quota !== undefined && Number.isFinite(quota) && quota > 0
    ? Math.floor(Math.min(fixed, quota * QUOTA_SHARE))
    : fixed;
}

export type KeptKind = 'image' | 'video';

export interface KeptEntry {
  /** the cache key: the address without its query */
  url: string;
  kind: KeptKind;
  /** bytes (a download under way counts the size its answer announced) */
  size: number;
  /** when it was stored (ms) */
  storedAt: number;
  /** the last time the display named it assigned (ms; its storing time when it never was) */
  assignedAt: number;
  /** a download under way: counted, never dropped */
  pending?: boolean;
  /** a video's ETag, to ask whether the kept copy is still the one served */
  etag?: string;
}

export interface KeepIndex {
  entries: Record<string, KeptEntry>;
  /** the addresses the display last named assigned */
  assigned: string[];
}

export const emptyIndex = (): KeepIndex => ({ entries: {}, assigned: [] });

/** The index as read back from storage: anything malformed is dropped (the cache is reconciled with it after). */
export function parseIndex(raw: unknown): KeepIndex {
  const out = emptyIndex();
  if (!raw || typeof raw !== 'object') return out;
  const { entries, assigned } = raw as { entries?: unknown; assigned?: unknown };
  if (Array.isArray(assigned)) out.assigned = assigned.filter((u): u is string => typeof u === 'string');
  if (entries && typeof entries === 'object') {
    for (const e of Object.values(entries as Record<string, unknown>)) {
      const v = e as Partial<KeptEntry> | null;
      if (
        v &&
        typeof v.url === 'string' &&
        (v.kind === 'image' || v.kind === 'video') &&
        typeof v.size === 'number' &&
        typeof v.storedAt === 'number' &&
        typeof v.assignedAt === 'number' &&
        !v.pending
      )
        out.entries[v.url] = {
          url: v.url,
          kind: v.kind,
          size: v.size,
          storedAt: v.storedAt,
          assignedAt: v.assignedAt,
          ...(typeof v.etag === 'string' ? { etag: v.etag } : {}),
        };
    }
  }
  return out;
}

/**
 * The display names what is assigned: `replace` when it read all of the screen's content (what it does not name is
 * no longer assigned), else these are added (what plays now, or a partial read while the network is out). Entries
 * named are marked assigned at `now`.
 */
export function markAssigned(index: KeepIndex, urls: readonly string[], replace: boolean, now: number): KeepIndex {
  const assigned = new Set(replace ? urls : [...index.assigned, ...urls]);
  const entries: Record<string, KeptEntry> = {};
  for (const [url, e] of Object.entries(index.entries))
    entries[url] = assigned.has(url) ? { ...e, assignedAt: now } : e;
  return { entries, assigned: [...assigned] };
}

export const totalBytes = (index: KeepIndex): number =>
  Object.values(index.entries).reduce((sum, e) => sum + e.size, 0);

/** The order in which entries may be dropped: unassigned ones only, assigned longest ago first, then stored first. */
export function evictionOrder(index: KeepIndex): KeptEntry[] {
  const assigned = new Set(index.assigned);
  return Object.values(index.entries)
    .filter((e) => !assigned.has(e.url) && !e.pending)
    .sort((a, b) => a.assignedAt - b.assignedAt || a.storedAt - b.storedAt || (a.url < b.url ? -1 : 1));
}

/**
 * Room for `incoming` bytes (0: only get back under the cap): which entries to drop, oldest unassigned first, and
 * whether it then fits. When even dropping every unassigned entry would not make room, nothing is dropped (the new
 * content is then not kept: it plays from the network as before).
 */
export function planRoom(index: KeepIndex, incoming: number, cap: number): { drop: string[]; fits: boolean } {
  let over = totalBytes(index) + incoming - cap;
  if (over <= 0) return { drop: [], fits: true };
  if (incoming > cap) return { drop: [], fits: false };
  const drop: string[] = [];
  for (const e of evictionOrder(index)) {
    drop.push(e.url);
    over -= e.size;
    if (over <= 0) return { drop, fits: true };
  }
  // assigned content alone is over the cap (a smaller cap, more assigned): keep all of it, nothing new
  return { drop: incoming > 0 ? [] : drop, fits: false };
}
