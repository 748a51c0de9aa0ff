// The device view (second pass): every instance keeps in memory the active screens' records, the owners'
// fleet documents and the groups, so a display's manifest, its heartbeat and play batch checks and the fleet view's
// per-owner list read no database. Built at start by a scan in batches (a restart rebuilds it), kept current by the
// changes this instance makes (the repositories re-read what they wrote, before the call answers) and by the screens'
// own events heard on every instance (`followEvents`): an event re-reads the records it names by `_id` (batched),
// since the outbox publishes after the commit. Each table is one of the kit's memory views (createMemoryView): an
// entry is replaced only by a read that started later than the one it came from, so a slow read never overwrites a
// newer one whatever order they land in.
import { subjects } from '@pagecast/contracts';
import {
  type ByIdCollection,
  createMemoryView,
  eventRoutes,
  followEvents,
  LRUCache,
  type Nats,
} from '@pagecast/service-kit';
import type { pino } from 'pino';
import type { FleetDoc, GroupDoc } from './fleet';
import type { ScreenRecord } from './models';

/**
 * The backstop: an entry read longer ago than this is read again behind the answer it gives (and an owner's list of
 * screens is queried again behind), so a message lost without a disconnection (a disconnection reloads the whole
 * view) leaves what a display or an owner is served wrong for about 5 minutes at most. Minutes, not seconds: every
 * change announces an event, so this is only for the rare loss; at 10,000 screens it costs about 33 reads by `_id` a
 * second, batched into a few queries.
 */
export const VIEW_BACKSTOP_MS = 5 * 60_000;
/**
 * At most this many entries per table (screens, groups, fleet documents); the least recently used goes first. About
 * 1 KiB per active screen (1,033 bytes with its share of its owner's fleet document and groups: 10,000 screens of 100
 * owners, bench/device-view.bench.mjs), so 100,000 screens fit in about 100 MiB; the start's scan of 10,000
 * took 0.9 s there. Past the bound the fleet view queries the owner's screens (the owner index may miss an evicted
 * one) until the next reload.
 */
export const VIEW_ENTRIES_MAX = 100_000;
/** Documents per batch of the scan at start. */
const PAGE = 1_000;

/** What the view reads of a collection: by `_id` (batched) and a scan in batches. */
export interface ViewCollection extends ByIdCollection {
  find(filter: Record<string, unknown>): {
    batchSize(n: number): AsyncIterable<unknown>;
    toArray(): Promise<unknown[]>;
  };
}

export function createDeviceView(collections: {
  screens: ViewCollection;
  groups: ViewCollection;
  fleets: ViewCollection;
}) {
  /** false: the owner index may miss a screen (an eviction, a failed re-read) until the next reload */
  let complete = false;
  const byOwner = new Map<string, Set<string>>();
  /** owners whose list was checked within the backstop (a lost pairing event is found at the next check) */
  const ownerChecked = new LRUCache<string, true>({
    maxSize: VIEW_ENTRIES_MAX, // a count (no slot allocated up front: createMemoryView)
    sizeCalculation: () => 1,
    ttl: VIEW_BACKSTOP_MS,
    allowStale: true,
    noDeleteOnStaleGet: true,
  });

  const table = <T extends { _id: string }>(
    collection: ViewCollection,
    onChange?: (id: string, before: T | null, after: T | null) => void,
  ) => {
    const view = createMemoryView<T>({
      source: collection,
      max: VIEW_ENTRIES_MAX,
      backstopMs: VIEW_BACKSTOP_MS,
      refresh: 'behind',
      onChange: onChange
        ? (id, before, after, evicted) => {
            onChange(id, before, after);
            if (evicted) complete = false;
          }
        : undefined,
    });
    return {
      view,
      /** Reads these ids now (batched) and keeps what it finds (null: none). A failed read forgets them. */
      read: (ids: string[]) =>
        view.read(ids).catch((err) => {
          if (onChange) complete = false;
          throw err;
        }),
      /**
       * Reads the whole collection in batches of PAGE (one cursor: the driver asks for each next batch), keeping every
       * document with the sequence number of the scan's start (a read that started later wins: it saw at least as
       * much, and what changed after it brings its own event).
       */
      async scan(filter: Record<string, unknown>): Promise<T[]> {
        const scanSeq = view.next();
        const all: T[] = [];
        const cursor = collection.find(filter).batchSize(PAGE);
        for await (const doc of cursor as AsyncIterable<T>) {
          view.set(doc._id, doc, scanSeq);
          all.push(doc);
        }
        return all;
      },
    };
  };

  const active = (s: ScreenRecord | null): s is ScreenRecord => s !== null && !s.revokedAt;
  const screens = table<ScreenRecord>(collections.screens, (id, before, after) => {
    if (active(before) && (!active(after) || after.ownerId !== before.ownerId)) byOwner.get(before.ownerId)?.delete(id);
    if (active(after)) {
      const ids = byOwner.get(after.ownerId);
      if (ids) ids.add(id);
      else byOwner.set(after.ownerId, new Set([id]));
    }
  });
  const groups = table<GroupDoc>(collections.groups);
  const fleets = table<FleetDoc>(collections.fleets);

  let loading: Promise<ViewLoad> | undefined;
  const load = async (): Promise<ViewLoad> => {
    const started = performance.now();
    const since = { fleets: fleets.view.next(), groups: groups.view.next(), screens: screens.view.next() };
    // fleet documents and groups first: a screen loaded after them names groups the scan saw or that came later
    // (each change after `since` re-reads what it names)
    const fleetDocs = await fleets.scan({});
    const groupDocs = await groups.scan({});
    const screenDocs = await screens.scan({ revokedAt: null });
    // what no read since the start confirmed is gone (revoked, deleted): a miss reads it again by `_id`
    screens.view.dropOlderThan(since.screens);
    groups.view.dropOlderThan(since.groups);
    fleets.view.dropOlderThan(since.fleets);
    // owners without a fleet document and groups named but gone are known absent as of the scan (no read per call)
    for (const s of screenDocs) {
      if (fleets.view.peek(s.ownerId) === undefined) fleets.view.set(s.ownerId, null, since.fleets);
      for (const g of s.groupIds ?? []) if (groups.view.peek(g) === undefined) groups.view.set(g, null, since.groups);
    }
    ownerChecked.clear();
    complete = screenDocs.length <= VIEW_ENTRIES_MAX;
    return {
      screens: screenDocs.length,
      groups: groupDocs.length,
      fleets: fleetDocs.length,
      ms: performance.now() - started,
    };
  };

  /** Re-reads what an event names: the records are this service's own, committed before the event was published. */
  const events = eventRoutes()
    .on([subjects.screenChanged, subjects.screenRevoked], (data) => screens.read([data.screenId]))
    .on(subjects.screenPaired, (data) => screens.read(data.screenIds))
    .on(subjects.fleetChanged, async (data) => {
      // a takeover changes the owner's fleet document alone (its running takeovers), no screen or group record:
      // re-reading every screen it names (the whole fleet, for one on all screens) cost each instance thousands of
      // reads at the moment the displays ask for their new manifests
      if (data.kind === 'takeover-started' || data.kind === 'takeover-ended')
        return void (await fleets.read([data.ownerId]));
      const [read] = await Promise.all([screens.read(data.screenIds), fleets.read([data.ownerId])]);
      // the group it names, and every group its screens are in now (a group changed while it had no member
      // announces nothing: the screen that joins it later brings its re-read)
      const named = new Set(data.groupId ? [data.groupId] : []);
      for (const s of read.values()) for (const g of s?.groupIds ?? []) named.add(g);
      if (named.size > 0) await groups.read([...named]);
    });

  const reload = (): Promise<ViewLoad> => {
    loading ??= load().finally(() => {
      loading = undefined;
    });
    return loading;
  };
  /** After a failed re-read (the database away): the owner index is rebuilt once it answers again. */
  const reloadBehind = () => {
    reload().catch(() => {});
  };

  return {
    /** The paged scan at start (and after a gap): every active screen, every group and fleet document. */
    load: reload,
    /** Hears the screens' events on this instance (a gap reloads the view). */
    follow(nats: Nats, logger?: pino.Logger) {
      return followEvents(nats, events, {
        logger,
        onGap: () => {
          complete = false;
          reload().catch((err) => logger?.warn({ err }, 'device view: reload after a gap failed'));
        },
      });
    },
    /** The screen's record (revoked ones too), or null. */
    screen: (id: string) => screens.view.get(id),
    /** The records of these screens that exist (revoked ones too): held ones from memory, the others read together. */
    screens: (ids: readonly string[]) => screens.view.many(ids),
    /** The owner's fleet document (its default when it has none). */
    async fleet(ownerId: string): Promise<FleetDoc> {
      return (await fleets.view.get(ownerId)) ?? { _id: ownerId, order: [], running: [] };
    },
    /** These groups (the ones that exist), in the order asked. */
    async groups(ids: readonly string[]): Promise<GroupDoc[]> {
      const out: GroupDoc[] = [];
      // every display's call: all held within the backstop, one lookup each
      for (const id of ids) {
        const held = groups.view.held(id);
        if (held === undefined) {
          const found = await groups.view.many(ids);
          return ids.flatMap((g) => found.get(g) ?? []);
        }
        if (held) out.push(held);
      }
      return out;
    },
    /**
     * The owner's active screens from the owner index (no query), or from `query` when the index may be incomplete
     * (before the load, past the bound, after a failed re-read). Past the backstop the owner's list is checked again
     * behind with `query` (what a lost pairing event could have left out).
     */
    async ownerScreens(ownerId: string, query: () => Promise<ScreenRecord[]>): Promise<ScreenRecord[]> {
      if (!complete) return query();
      const checked: LRUCache.Status<string, true> = {};
      ownerChecked.get(ownerId, { status: checked });
      if (checked.get !== 'hit') ownerChecked.set(ownerId, true);
      if (checked.get === 'stale') {
        const querySeq = screens.view.next();
        query()
          .then((found) => {
            for (const s of found) screens.view.set(s._id, s, querySeq);
            const seen = new Set(found.map((s) => s._id));
            const gone = [...(byOwner.get(ownerId) ?? [])].filter((id) => !seen.has(id));
            if (gone.length > 0) return screens.read(gone);
          })
          .catch(() => {});
      }
      const ids = byOwner.get(ownerId);
      if (!ids) return [];
      return [...ids].flatMap((id) => {
        const doc = screens.view.peek(id);
        return doc ? [doc] : [];
      });
    },
    /**
     * Every active screen held (the alert feed matches a report against all of them), or null when the owner index may
     * be incomplete (the caller reads the database instead).
     */
    activeScreens(): ScreenRecord[] | null {
      if (!complete) return null;
      const out: ScreenRecord[] = [];
      for (const ids of byOwner.values()) {
        for (const id of ids) {
          const doc = screens.view.peek(id);
          if (doc && !doc.revokedAt) out.push(doc);
        }
      }
      return out;
    },
    /** Write-through: a change made here is re-read before the call answers (a failed re-read forgets the entries). */
    refreshScreens: async (ids: string[]) => {
      if (ids.length > 0) await screens.read(ids).catch(reloadBehind);
    },
    /** A screen this instance just inserted (nothing else can have changed it yet). */
    putScreen(record: ScreenRecord): void {
      screens.view.set(record._id, record);
    },
    refreshGroups: async (ids: string[]) => {
      if (ids.length > 0) await groups.read(ids).catch(reloadBehind);
    },
    refreshFleet: async (ownerId: string) => {
      await fleets.read([ownerId]).catch(reloadBehind);
    },
    /** How many reads by `_id` are running (tests). */
    reading: () => screens.view.reading + groups.view.reading + fleets.view.reading,
    /** How many entries each table holds (figures and tests). */
    size: () => ({ screens: screens.view.size, groups: groups.view.size, fleets: fleets.view.size }),
  };
}

export interface ViewLoad {
  screens: number;
  groups: number;
  fleets: number;
  ms: number;
}
export type DeviceView = ReturnType<typeof createDeviceView>;
