// The device view (issue 40, second pass): every instance keeps in memory the active screens' records, the owners'
// fleet documents and the groups, so a display's manifest, its heartbeat and play batch checks and the fleet view's
// per-owner list read no database. Built at start by a scan in batches (a restart rebuilds it), kept current by the
// changes this instance makes (the repositories re-read what they wrote, before the call answers) and by the screens'
// own events heard on every instance (`followEvents`): an event re-reads the records it names by `_id` (batched),
// since the outbox publishes after the commit. An entry is replaced only by a read that started later than the one it
// came from (a sequence number per read), so a slow read never overwrites a newer one whatever order they land in.
import { type EventEnvelope, type EventData, subjects } from '@pagecast/contracts';
import { type ByIdCollection, createBatchLoader, followEvents, type Nats, readByIds } from '@pagecast/service-kit';
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
 * At most this many entries per table (screens, groups, fleet documents); the oldest read goes first. Measured about
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

interface Entry<T> {
  doc: T | null;
  /** the sequence number of the read it came from */
  seq: number;
  /** when it was read (real time: the backstop) */
  at: number;
}

type OnApply<T> = (id: string, before: T | null, after: T | null) => void;

export function createDeviceView(collections: {
  screens: ViewCollection;
  groups: ViewCollection;
  fleets: ViewCollection;
}) {
  let seq = 0;
  /** reads by `_id` running now (tests wait for none before they count queries) */
  let reading = 0;
  /** false: the owner index may miss a screen (an eviction, a failed re-read) until the next reload */
  let complete = false;
  const byOwner = new Map<string, Set<string>>();
  const ownerCheckedAt = new Map<string, number>();

  const table = <T extends { _id: string }>(collection: ViewCollection, onApply?: OnApply<T>) => {
    const entries = new Map<string, Entry<T>>();
    const loader = createBatchLoader<string, T>(readByIds<T>(collection));
    const apply = (id: string, doc: T | null, readSeq: number, at: number): boolean => {
      const before = entries.get(id);
      if (before && before.seq > readSeq) return false;
      entries.delete(id);
      entries.set(id, { doc, seq: readSeq, at });
      onApply?.(id, before?.doc ?? null, doc);
      while (entries.size > VIEW_ENTRIES_MAX) {
        const oldest = entries.keys().next().value as string;
        const gone = entries.get(oldest);
        entries.delete(oldest);
        onApply?.(oldest, gone?.doc ?? null, null);
        if (onApply) complete = false;
      }
      return true;
    };
    const forget = (id: string) => {
      const before = entries.get(id);
      if (!before) return;
      entries.delete(id);
      onApply?.(id, before.doc, null);
    };
    /** Reads these ids now (batched) and keeps what it finds (null: none). A failed read forgets them. */
    const read = async (ids: string[]): Promise<Map<string, T | null>> => {
      const readSeq = ++seq;
      const at = Date.now();
      const found = new Map<string, T | null>();
      reading++;
      try {
        const docs = await Promise.all([...new Set(ids)].map(async (id) => [id, (await loader.load(id)) ?? null]));
        for (const [id, doc] of docs as Array<[string, T | null]>) {
          found.set(id, doc);
          apply(id, doc, readSeq, at);
        }
      } catch (err) {
        // what the view held may be from before the change this read was for: a miss reads it again
        for (const id of ids) if ((entries.get(id)?.seq ?? 0) < readSeq) forget(id);
        if (onApply) complete = false;
        throw err;
      } finally {
        reading--;
      }
      return found;
    };
    return {
      entries,
      apply,
      read,
      /** From memory; a miss reads by `_id` and keeps it; an entry past the backstop is read again behind. */
      async get(id: string): Promise<T | null> {
        const hit = entries.get(id);
        if (hit) {
          const now = Date.now();
          if (now - hit.at > VIEW_BACKSTOP_MS) {
            hit.at = now; // one read behind per entry and period
            read([id]).catch(() => {});
          }
          return hit.doc;
        }
        return (await read([id])).get(id) ?? null;
      },
      async many(ids: readonly string[]): Promise<T[]> {
        const missing = ids.filter((id) => !entries.has(id));
        if (missing.length > 0) await read(missing);
        return ids.flatMap((id) => {
          const doc = entries.get(id)?.doc;
          return doc ? [doc] : [];
        });
      },
      /**
       * Reads the whole collection in batches of PAGE (one cursor: the driver asks for each next batch), keeping every
       * document with the sequence number of the scan's start (a read that started later wins: it saw at least as
       * much, and what changed after it brings its own event).
       */
      async scan(filter: Record<string, unknown>): Promise<T[]> {
        const scanSeq = ++seq;
        const all: T[] = [];
        const cursor = collection.find(filter).batchSize(PAGE);
        for await (const doc of cursor as AsyncIterable<T>) {
          apply(doc._id, doc, scanSeq, Date.now());
          all.push(doc);
        }
        return all;
      },
      /** Drops every entry no read since `sinceSeq` confirmed (after a scan: revoked screens, deleted groups). */
      dropOlderThan(sinceSeq: number): void {
        for (const [id, e] of [...entries]) if (e.seq < sinceSeq) forget(id);
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
    const since = ++seq;
    // fleet documents and groups first: a screen loaded after them names groups the scan saw or that came later
    // (each change after `since` re-reads what it names)
    const fleetDocs = await fleets.scan({});
    const groupDocs = await groups.scan({});
    const screenDocs = await screens.scan({ revokedAt: null });
    // what no read since the start confirmed is gone (revoked, deleted): a miss reads it again by `_id`
    screens.dropOlderThan(since);
    groups.dropOlderThan(since);
    fleets.dropOlderThan(since);
    // owners without a fleet document and groups named but gone are known absent as of the scan (no read per call)
    const at = Date.now();
    for (const s of screenDocs) {
      if (!fleets.entries.has(s.ownerId)) fleets.apply(s.ownerId, null, since, at);
      for (const g of s.groupIds ?? []) if (!groups.entries.has(g)) groups.apply(g, null, since, at);
    }
    ownerCheckedAt.clear();
    complete = screens.entries.size <= VIEW_ENTRIES_MAX;
    return {
      screens: screenDocs.length,
      groups: groupDocs.length,
      fleets: fleetDocs.length,
      ms: performance.now() - started,
    };
  };

  /** Re-reads what an event names: the records are this service's own, committed before the event was published. */
  const onEvent = async (event: EventEnvelope): Promise<void> => {
    switch (event.type) {
      case subjects.screenChanged:
      case subjects.screenRevoked: {
        const { screenId } = event.data as EventData<typeof subjects.screenChanged>;
        await screens.read([screenId]);
        return;
      }
      case subjects.screenPaired: {
        await screens.read((event.data as EventData<typeof subjects.screenPaired>).screenIds);
        return;
      }
      case subjects.fleetChanged: {
        const data = event.data as EventData<typeof subjects.fleetChanged>;
        const [read] = await Promise.all([screens.read(data.screenIds), fleets.read([data.ownerId])]);
        // the group it names, and every group its screens are in now (a group changed while it had no member
        // announces nothing: the screen that joins it later brings its re-read)
        const named = new Set(data.groupId ? [data.groupId] : []);
        for (const s of read.values()) for (const g of s?.groupIds ?? []) named.add(g);
        if (named.size > 0) await groups.read([...named]);
        return;
      }
    }
  };

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
      return followEvents(
        nats,
        [subjects.screenChanged, subjects.screenRevoked, subjects.screenPaired, subjects.fleetChanged],
        (event) => {
          onEvent(event).catch((err) => logger?.warn({ err, type: event.type }, 'device view: event not applied'));
        },
        {
          logger,
          onGap: () => {
            complete = false;
            reload().catch((err) => logger?.warn({ err }, 'device view: reload after a gap failed'));
          },
        },
      );
    },
    /** The screen's record (revoked ones too), or null. */
    screen: (id: string) => screens.get(id),
    /** The owner's fleet document (its default when it has none). */
    async fleet(ownerId: string): Promise<FleetDoc> {
      return (await fleets.get(ownerId)) ?? { _id: ownerId, order: [], running: [] };
    },
    /** These groups (the ones that exist), in the order asked. */
    groups: (ids: readonly string[]) => groups.many(ids),
    /**
     * The owner's active screens from the owner index (no query), or from `query` when the index may be incomplete
     * (before the load, past the bound, after a failed re-read). Past the backstop the owner's list is checked again
     * behind with `query` (what a lost pairing event could have left out).
     */
    async ownerScreens(ownerId: string, query: () => Promise<ScreenRecord[]>): Promise<ScreenRecord[]> {
      if (!complete) return query();
      const now = Date.now();
      const checked = ownerCheckedAt.get(ownerId);
      if (checked === undefined) ownerCheckedAt.set(ownerId, now);
      else if (now - checked > VIEW_BACKSTOP_MS) {
        ownerCheckedAt.set(ownerId, now);
        const querySeq = ++seq;
        query()
          .then((found) => {
            const at = Date.now();
            for (const s of found) screens.apply(s._id, s, querySeq, at);
            const seen = new Set(found.map((s) => s._id));
            const gone = [...(byOwner.get(ownerId) ?? [])].filter((id) => !seen.has(id));
            if (gone.length > 0) return screens.read(gone);
          })
          .catch(() => {});
      }
      const ids = byOwner.get(ownerId);
      if (!ids) return [];
      return [...ids].flatMap((id) => {
        const doc = screens.entries.get(id)?.doc;
        return doc ? [doc] : [];
      });
    },
    /** Write-through: a change made here is re-read before the call answers (a failed re-read forgets the entries). */
    refreshScreens: async (ids: string[]) => {
      if (ids.length > 0) await screens.read(ids).catch(reloadBehind);
    },
    /** A screen this instance just inserted (nothing else can have changed it yet). */
    putScreen(record: ScreenRecord): void {
      screens.apply(record._id, record, ++seq, Date.now());
    },
    refreshGroups: async (ids: string[]) => {
      if (ids.length > 0) await groups.read(ids).catch(reloadBehind);
    },
    refreshFleet: async (ownerId: string) => {
      await fleets.read([ownerId]).catch(reloadBehind);
    },
    /** How many reads by `_id` are running (tests). */
    reading: () => reading,
    /** How many entries each table holds (figures and tests). */
    size: () => ({ screens: screens.entries.size, groups: groups.entries.size, fleets: fleets.entries.size }),
  };
}

export interface ViewLoad {
  screens: number;
  groups: number;
  fleets: number;
  ms: number;
}
export type DeviceView = ReturnType<typeof createDeviceView>;
