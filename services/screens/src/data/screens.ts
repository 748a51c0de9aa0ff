import { setNewest } from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import type { Models, ScreenRecord } from './models';

/** How many screens' records the device check keeps (a bounded map: the oldest goes first). */
const RECENT_MAX = 20_000;
/** How long an owner's list of screens for the fleet view is kept at most, and for how many owners. */
export const HEALTH_VIEW_MS = 10_000;
const HEALTH_VIEWS_MAX = 200;

/** What the health of a screen needs of its record. */
export type HealthScreenRecord = Pick<
  ScreenRecord,
  '_id' | 'ownerId' | 'name' | 'timeZone' | 'assignment' | 'groupIds' | 'rotation' | 'openingHours'
>;

export function createScreenRepository(models: Models) {
  const { screens } = models;
  const recent = new Map<string, { record: ScreenRecord | null; at: number }>();
  // A read that a change made here overtook is not remembered (it could hold the record from before a revocation).
  let changes = 0;
  const views = new Map<string, { screens: HealthScreenRecord[]; at: number }>();
  const read = async (id: string, now: number): Promise<ScreenRecord | null> => {
    const before = changes;
    const record = await screens.findById(id).lean<ScreenRecord>();
    if (changes === before) {
      setNewest(recent, id, { record, at: now }, RECENT_MAX);
    }
    return record;
  };
  /** One read of an owner's list at a time (a page's calls and a refresh behind them share it). */
  const reading = new Map<string, { read: Promise<HealthScreenRecord[]>; before: number }>();
  const readForHealth = (ownerId: string, now: number): Promise<HealthScreenRecord[]> => {
    const running = reading.get(ownerId);
    // shared only while nothing changed since it started (a read a change overtook would answer from before it)
    if (running && running.before === changes) return running.read;
    const before = changes;
    const read = screens
      .find(
        { ownerId, revokedAt: null },
        { _id: 1, ownerId: 1, name: 1, timeZone: 1, assignment: 1, groupIds: 1, rotation: 1, openingHours: 1 },
      )
      .lean<HealthScreenRecord[]>()
      .then((found) => {
        // a read that a change overtook is not kept
        if (changes === before) setNewest(views, ownerId, { screens: found, at: now }, HEALTH_VIEWS_MAX);
        return found;
      })
      .finally(() => {
        if (reading.get(ownerId)?.read === read) reading.delete(ownerId);
      });
    reading.set(ownerId, { read, before });
    return read;
  };
  return {
    async create(record: ScreenRecord): Promise<void> {
      changes++;
      views.clear();
      recent.delete(record._id);
      await screens.create(record);
    },
    /** The record read now (what a display plays); the device check below reuses it. */
    get: (id: string, now = Date.now()) => read(id, now),
    /**
     * The record as read at most maxAgeMs ago by this process (a display's frequent reports need not each read it).
     * A change made here forgets it at once; one made by another instance shows within maxAgeMs, and a revoked
     * device is refused by the gateway before that (revocations reach it over NATS).
     */
    async getRecent(id: string, maxAgeMs: number, now = Date.now()): Promise<ScreenRecord | null> {
      const hit = recent.get(id);
      if (hit && now - hit.at <= maxAgeMs) return hit.record;
      return read(id, now);
    },
    byPairing: (pairingId: string) => screens.findOne({ pairingId }).lean<ScreenRecord>(),
    listActive: (ownerId: string) =>
      screens.find({ ownerId, revokedAt: null }).sort({ pairedAt: 1 }).lean<ScreenRecord[]>(),
    /** Single-writer fields (the owner edits, the screen's own device reports): a plain $set is enough. */
    async set(id: string, fields: Partial<Omit<ScreenRecord, '_id'>>): Promise<void> {
      changes++;
      views.clear();
      recent.delete(id);
      await screens.updateOne({ _id: id }, { $set: fields });
      changes++;
      views.clear();
      recent.delete(id);
    },
    /** One update of many screens (one command); the device check forgets them. */
    async updateMany(ids: string[], update: mongoose.UpdateQuery<ScreenRecord>): Promise<void> {
      changes++;
      views.clear();
      for (const id of ids) recent.delete(id);
      await screens.updateMany({ _id: { $in: ids } }, update);
      changes++;
      views.clear();
      for (const id of ids) recent.delete(id);
    },
    /** Different fields per screen, in chunks of 50 updates (more in one bulkWrite hangs FerretDB). */
    async setEach(writes: Array<{ id: string; fields: Partial<Omit<ScreenRecord, '_id'>> }>): Promise<void> {
      changes++;
      views.clear();
      for (const w of writes) recent.delete(w.id);
      for (let i = 0; i < writes.length; i += 50) {
        await screens.bulkWrite(
          writes.slice(i, i + 50).map((w) => ({ updateOne: { filter: { _id: w.id }, update: { $set: w.fields } } })),
          { ordered: false },
        );
      }
      changes++;
      views.clear();
      for (const w of writes) recent.delete(w.id);
    },
    byIds: (ids: string[]) => screens.find({ _id: { $in: ids } }).lean<ScreenRecord[]>(),
    /**
     * The owner's active screens with only what their health needs (issue 38: the fleet view), one query kept a
     * while per owner: any change this process makes to a screen drops every kept list (a read it overtook is not
     * kept), `forgetOwner` drops one (another instance's change, from its event), and a list is read again after
     * HEALTH_VIEW_MS at the latest (a screen paired through another instance, which announces no event).
     */
    async forHealth(ownerId: string, now: number): Promise<HealthScreenRecord[]> {
      const hit = views.get(ownerId);
      if (!hit) return readForHealth(ownerId, now);
      // older than HEALTH_VIEW_MS: answered from the kept list while it is read again behind (a change made through
      // this process or announced by an event dropped the list already: what an old list can miss is a screen paired
      // through another instance, a few seconds longer), so an operator's page never waits for the owner's query
      if (now - hit.at > HEALTH_VIEW_MS) readForHealth(ownerId, now).catch(() => {});
      return hit.screens;
    },
    forgetOwner(ownerId: string): void {
      changes++;
      views.delete(ownerId);
    },
  };
}
export type ScreenRepository = ReturnType<typeof createScreenRepository>;
