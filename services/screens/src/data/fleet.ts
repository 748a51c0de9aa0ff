// Fleet control: groups, each member's fleet document (group order, running takeovers), takeovers and
// their log, templates and the intent records of bulk changes. The paths displays take (a manifest, a report) read
// the owner's fleet document and the screen's groups from the device view (device-view.ts: in memory, re-read here
// after every write of a group or fleet document, before the call answers); the member's own pages may filter by
// owner (FerretDB scans those: a member's list, not a display's path).
import {
  type MemberTakeoverContent,
  type OpeningHours,
  PLAY_MAX_AGE_DAYS,
  type ScreenAssignment,
  type ScreenPlace,
  type TakeoverContent,
  type TakeoverTarget,
} from '@pagecast/contracts';
import { isDuplicateKeyError, LRUCache, onceUntilFailure } from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import type { TakeoverRule } from '../domain';

export interface GroupDoc {
  _id: string;
  ownerId: string;
  name: string;
  /** the name as compared for duplicates (NFKC, lower case); unique per owner */
  nameKey: string;
  assignment: ScreenAssignment;
  createdAt: Date;
  /** absent on groups made before hours and thresholds: null and the default */
  openingHours?: OpeningHours;
  alertAfterMinutes?: number;
  /** where its screens are (absent: null) */
  place?: ScreenPlace;
}

/** A takeover as the displays need it (kept in the owner's fleet document while it may run). */
export type RunningTakeover = TakeoverRule;

/** One per member (`_id` = ownerId): the groups' precedence order and the takeovers that may be running. */
export interface FleetDoc {
  _id: string;
  order: string[];
  running: RunningTakeover[];
}

export interface TakeoverDoc {
  _id: string;
  ownerId: string;
  target: TakeoverTarget;
  content: TakeoverContent;
  startedAt: Date;
  /** the member, or `feed` for a disaster alert */
  startedBy: string;
  /** a disaster alert: the event it belongs to (its 訂正 and 取消 find it by this) and the report that started it */
  alert?: { eventId: string; reportId: string };
  endsAt: Date | null;
  endedAt: Date | null;
  endedBy: string | null;
  /** the screens it covered when it started */
  screenIds: string[];
  templateId: string | null;
}

/** Insert-only: `${takeoverId}#start` and `${takeoverId}#end`. */
export interface TakeoverLogDoc {
  _id: string;
  ownerId: string;
  takeoverId: string;
  action: 'start' | 'end';
  at: Date;
  by: string;
  screenIds: string[];
  content: TakeoverContent;
  /** a disaster alert's start, replacement or end: the report that did it */
  reportId?: string;
}

export interface TemplateDoc {
  _id: string;
  ownerId: string;
  name: string;
  content: MemberTakeoverContent;
  minutes: number | null;
}

/** A bulk change as intended, inserted before any screen is written; `doneAt` once every write landed. */
export interface ChangeDoc {
  _id: string;
  ownerId: string;
  kind: string;
  screenIds: string[];
  change: Record<string, unknown>;
  at: Date;
  doneAt: Date | null;
  /** who asked for it, from where (its audit entry, published again with the same id when the change is resumed);
   * absent on changes recorded before the audit log */
  actor?: { userId: string; address: string };
}

/** What this repository asks of the device view (device-view.ts; named here, which it imports). */
export interface FleetView {
  groups(ids: readonly string[]): Promise<GroupDoc[]>;
  fleet(ownerId: string): Promise<FleetDoc>;
  refreshGroups(ids: string[]): Promise<void>;
  refreshFleet(ownerId: string): Promise<void>;
}

/**
 * A takeover that ended (or was set to end) longer ago than this before a read covers no record the service still
 * takes (PLAY_MAX_AGE_DAYS), with a day's slack for a list kept a minute: proof of play never reads it again, so
 * its cost stays the same however many takeovers an owner ran over the years.
 */
const TAKEOVER_HORIZON_MS = (PLAY_MAX_AGE_DAYS + 1) * 86_400_000;

export function createFleetRepository(conn: mongoose.Connection, view: FleetView) {
  const groups = conn.collection<GroupDoc>('screen_groups');
  const fleets = conn.collection<FleetDoc>('screen_fleets');
  const takeovers = conn.collection<TakeoverDoc>('screen_takeovers');
  let clock = 0; // the service's clock as of the last read (tests move it): the ages are in it
  /** The owner's file takeovers that may cover a record the service still takes, read now. */
  const readRecent = (ownerId: string, now: number) => {
    const since = new Date(now - TAKEOVER_HORIZON_MS);
    return takeovers
      .find({
        ownerId,
        'content.kind': 'file',
        $or: [
          { endedAt: { $gte: since } },
          { endedAt: null, endsAt: null },
          { endedAt: null, endsAt: { $gte: since } },
        ],
      })
      .toArray();
  };
  /**
   * Each owner's file takeovers as last read (proof of play reads them for every batch). The callers that find none
   * kept share one read (a minute's end finds every judge group of the owner's screens missing it at once). A start
   * or an end on this instance deletes the entry, which aborts a read running (it may have missed the change): its
   * callers are refused by lru-cache and read again.
   */
  const recentByOwner = new LRUCache<string, TakeoverDoc[], number>({
    max: 10_000,
    ttl: 60_000,
    ttlResolution: 0,
    perf: { now: () => clock },
    fetchMethod: (ownerId, _stale, { context: now }) => readRecent(ownerId, now),
  });
  const log = conn.collection<TakeoverLogDoc>('screen_takeover_log');
  const templates = conn.collection<TemplateDoc>('screen_takeover_templates');
  const changes = conn.collection<ChangeDoc>('screen_changes');
  const ensureIndexes = onceUntilFailure(() =>
    Promise.all([
      groups.createIndex({ ownerId: 1, nameKey: 1 }, { unique: true }),
      takeovers.createIndex({ ownerId: 1 }),
      takeovers.createIndex({ 'alert.eventId': 1 }),
      log.createIndex({ ownerId: 1 }),
      templates.createIndex({ ownerId: 1 }),
      changes.createIndex({ doneAt: 1 }),
    ]),
  );

  return {
    ensureIndexes,
    groups: {
      ofOwner: (ownerId: string) => groups.find({ ownerId }).toArray(),
      byIds: (ids: string[]) => (ids.length ? groups.find({ _id: { $in: ids } }).toArray() : Promise.resolve([])),
      countOf: (ownerId: string) => groups.countDocuments({ ownerId }),
      /** false: the owner has a group of that name */
      async insert(doc: GroupDoc): Promise<boolean> {
        await ensureIndexes();
        try {
          await groups.insertOne(doc);
          return true;
        } catch (err) {
          if (isDuplicateKeyError(err)) return false;
          throw err;
        } finally {
          await view.refreshGroups([doc._id]);
        }
      },
      /** false: the new name is taken */
      async set(id: string, fields: Partial<Omit<GroupDoc, '_id' | 'ownerId'>>): Promise<boolean> {
        try {
          await groups.updateOne({ _id: id }, { $set: fields });
          return true;
        } catch (err) {
          if (isDuplicateKeyError(err)) return false;
          throw err;
        } finally {
          await view.refreshGroups([id]);
        }
      },
      async remove(id: string) {
        try {
          return await groups.deleteOne({ _id: id });
        } finally {
          await view.refreshGroups([id]);
        }
      },
    },
    fleets: {
      async get(ownerId: string): Promise<FleetDoc> {
        return (await fleets.findOne({ _id: ownerId })) ?? { _id: ownerId, order: [], running: [] };
      },
      async set(doc: FleetDoc): Promise<void> {
        try {
          await fleets.updateOne(
            { _id: doc._id },
            { $set: { order: doc.order, running: doc.running } },
            { upsert: true },
          );
        } finally {
          await view.refreshFleet(doc._id);
        }
      },
    },
    takeovers: {
      get: (id: string) => takeovers.findOne({ _id: id }),
      ofOwner: (ownerId: string) => takeovers.find({ ownerId }).toArray(),
      /**
       * The owner's file takeovers that may cover a record the service still takes (running, or ended within
       * TAKEOVER_HORIZON_MS of `now`), as read within the last minute of `now` (10,000 owners kept), or afresh: proof
       * of play, for every batch; a takeover started or ended on this instance is seen at once. The callers that
       * find none kept share one read (each document names every screen it covered: thousands of ids).
       */
      async recentOfOwner(ownerId: string, now: number, fresh: boolean): Promise<TakeoverDoc[]> {
        clock = now;
        // a fresh read (a record about to be refused) is its own, started now, and kept by nobody: dropping the entry
        // instead would abort the read other callers share, and many refusals at once would abort each other's
        if (fresh) return readRecent(ownerId, now);
        for (let attempt = 1; ; attempt++) {
          try {
            return (await recentByOwner.fetch(ownerId, { context: now })) ?? [];
          } catch (err) {
            // aborted by a start or an end meanwhile (or the read failed): read again, a few times at most
            if (attempt >= 3) throw err;
          }
        }
      },
      /** The members with an alert takeover of this event not ended by hand or by the feed (a report's rare read). */
      async ownersOfAlert(eventId: string): Promise<string[]> {
        const docs = await takeovers
          .find({ 'alert.eventId': eventId, endedAt: null }, { projection: { ownerId: 1 } })
          .toArray();
        return [...new Set(docs.map((d) => d.ownerId))];
      },
      /**
       * A member's alert takeovers of this event that they ended by hand (not on time, not by the feed: `feed`, the
       * word of use-cases/feed.ts).
       */
      endedByHand: async (ownerId: string, eventId: string): Promise<TakeoverDoc[]> =>
        takeovers
          .find({ ownerId, 'alert.eventId': eventId, endedAt: { $ne: null }, endedBy: { $nin: [null, 'feed'] } })
          .toArray(),
      insert: async (doc: TakeoverDoc) => {
        await ensureIndexes();
        await takeovers.insertOne(doc);
        recentByOwner.delete(doc.ownerId);
      },
      /** `ownerId`: the takeover's owner, whose recent takeovers are read again */
      end: async (id: string, ownerId: string, endedAt: Date, endedBy: string) => {
        await takeovers.updateOne({ _id: id }, { $set: { endedAt, endedBy } });
        recentByOwner.delete(ownerId);
      },
    },
    log: {
      /** once per takeover and action (a retry inserts nothing) */
      async add(entry: TakeoverLogDoc): Promise<void> {
        try {
          await log.insertOne(entry);
        } catch (err) {
          if (!isDuplicateKeyError(err)) throw err;
        }
      },
      ofOwner: (ownerId: string) => log.find({ ownerId }).toArray(),
      /** one entry (`<takeover id>#start` or `#end`): as first written, whatever a retry tried to add */
      get: (id: string) => log.findOne({ _id: id }),
    },
    templates: {
      get: (id: string) => templates.findOne({ _id: id }),
      ofOwner: (ownerId: string) => templates.find({ ownerId }).toArray(),
      countOf: (ownerId: string) => templates.countDocuments({ ownerId }),
      insert: async (doc: TemplateDoc) => {
        await ensureIndexes();
        await templates.insertOne(doc);
      },
      set: (id: string, fields: Partial<Omit<TemplateDoc, '_id' | 'ownerId'>>) =>
        templates.updateOne({ _id: id }, { $set: fields }),
      remove: (id: string) => templates.deleteOne({ _id: id }),
    },
    changes: {
      insert: async (doc: ChangeDoc) => {
        await ensureIndexes();
        await changes.insertOne(doc);
      },
      get: (id: string) => changes.findOne({ _id: id }),
      done: (id: string, at: Date) => changes.updateOne({ _id: id }, { $set: { doneAt: at } }),
      pending: () => changes.find({ doneAt: null }).toArray(),
    },
  };
}
export type FleetRepository = ReturnType<typeof createFleetRepository>;
