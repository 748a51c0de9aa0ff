// Incidents: a screen's bad state that lasted past its threshold, opened once (an insert under an id made
// from the screen, the state and when it began: the one atomic step on FerretDB, so two sweepers cannot open it
// twice), ended when the screen recovered or was unpaired, and whether its e-mails went.
import type { IncidentState, ScreenIncident } from '@pagecast/contracts';
import { bulkWriteErrors, onceUntilFailure, onlyDuplicateKeys } from '@pagecast/service-kit';
import type mongoose from 'mongoose';

export interface IncidentDoc {
  /** nameUuid(`${screenId}:${state}:${startedAt ms}`) */
  _id: string;
  screenId: string;
  ownerId: string;
  state: IncidentState;
  startedAt: Date;
  openedAt: Date;
  endedAt: Date | null;
  /** why it ended: the screen recovered (its owner is told), or was unpaired (nobody is told) */
  endedBy: 'recovered' | 'unpaired' | null;
  alertedAt: Date | null;
  recoveryAlertedAt: Date | null;
  /** false once nothing is left to tell about it (both alerts went, or it ended unpaired): the sweep reads the rest */
  unsettled: boolean;
}

export const toIncident = (d: IncidentDoc): ScreenIncident => ({
  id: d._id,
  screenId: d.screenId,
  state: d.state,
  startedAt: d.startedAt.toISOString(),
  openedAt: d.openedAt.toISOString(),
  endedAt: d.endedAt?.toISOString() ?? null,
  alertedAt: d.alertedAt?.toISOString() ?? null,
  recoveryAlertedAt: d.recoveryAlertedAt?.toISOString() ?? null,
});

/** An entry of the unsettled set: `_id` is the incident's id. */
interface UnsettledDoc {
  _id: string;
  at: Date;
}
/** An entry whose incident is not there after this long was left by an open that died before its insert. */
const ORPHAN_AFTER_MS = 5 * 60_000;

export function createIncidentRepository(conn: mongoose.Connection) {
  const incidents = conn.collection<IncidentDoc>('screen_incidents');
  // The ids of the incidents still unsettled, apart: the sweep reads this small set (its size is the open
  // incidents', not the history's) and the incidents by _id, where a query on `unsettled` read every incident ever
  // opened on FerretDB (no index but _id). An id goes in before its incident and leaves after it is settled, so a
  // crash between leaves an id too many (dropped later), never an incident the sweep does not see.
  const open = conn.collection<UnsettledDoc>('screen_incidents_unsettled');
  const settle = async (ids: string[]) => {
    if (ids.length > 0) await open.deleteMany({ _id: { $in: ids } });
  };
  const ensureIndexes = onceUntilFailure(() =>
    Promise.all([incidents.createIndex({ screenId: 1, openedAt: -1 }), incidents.createIndex({ unsettled: 1 })]),
  );
  return {
    ensureIndexes,
    /**
     * Opens these incidents in one unordered insert; answers those this call inserted (one found stored is open
     * already: another sweep, or this one earlier, inserted it).
     */
    async open(docs: IncidentDoc[]): Promise<IncidentDoc[]> {
      if (docs.length === 0) return [];
      await ensureIndexes();
      try {
        await open.insertMany(
          docs.map((d) => ({ _id: d._id, at: d.openedAt })),
          { ordered: false },
        );
      } catch (err) {
        if (!onlyDuplicateKeys(err)) throw err;
      }
      try {
        await incidents.insertMany(docs, { ordered: false });
        return docs;
      } catch (err) {
        if (!onlyDuplicateKeys(err)) throw err;
        const taken = new Set((bulkWriteErrors(err) ?? []).map((e) => e.index));
        return docs.filter((_, i) => !taken.has(i));
      }
    },
    /** Incidents still open, or ended with an e-mail still to send (the set, then each by _id). */
    async unsettled(now = new Date()): Promise<IncidentDoc[]> {
      const entries = await open.find({}).toArray();
      const found: IncidentDoc[] = [];
      for (let i = 0; i < entries.length; i += 500) {
        const ids = entries.slice(i, i + 500).map((e) => e._id);
        found.push(...(await incidents.find({ _id: { $in: ids } }).toArray()));
      }
      const byId = new Map(found.map((d) => [d._id, d]));
      const gone = entries.filter((e) => {
        const d = byId.get(e._id);
        return d ? !d.unsettled : now.getTime() - e.at.getTime() > ORPHAN_AFTER_MS;
      });
      await settle(gone.map((e) => e._id));
      return found.filter((d) => d.unsettled);
    },
    /**
     * Once per deployment (a migration claim): the incidents unsettled before the set existed go into it (the one
     * scan of the incidents, at a start).
     */
    async fillUnsettled(): Promise<number> {
      const docs = await incidents.find({ unsettled: true }, { projection: { _id: 1, openedAt: 1 } }).toArray();
      if (docs.length === 0) return 0;
      try {
        await open.insertMany(
          docs.map((d) => ({ _id: d._id, at: d.openedAt })),
          { ordered: false },
        );
      } catch (err) {
        if (!onlyDuplicateKeys(err)) throw err;
      }
      return docs.length;
    },
    async end(ids: string[], endedAt: Date, endedBy: 'recovered' | 'unpaired'): Promise<void> {
      if (ids.length === 0) return;
      // the end is written once: a sweep that already ended it is not overtaken (endedAt: null in the filter)
      await incidents.updateMany(
        { _id: { $in: ids }, endedAt: null },
        { $set: { endedAt, endedBy, ...(endedBy === 'unpaired' ? { unsettled: false } : {}) } },
      );
      if (endedBy === 'unpaired') await settle(ids);
    },
    /** The e-mail telling these incidents went (down: opened; recovered: ended; an incident may be in both). */
    async told(down: string[], recovered: string[], at: Date): Promise<void> {
      if (down.length > 0) await incidents.updateMany({ _id: { $in: down } }, { $set: { alertedAt: at } });
      if (recovered.length > 0) {
        await incidents.updateMany({ _id: { $in: recovered } }, { $set: { recoveryAlertedAt: at, unsettled: false } });
        await settle(recovered);
      }
    },
    /** A screen's log, newest first. */
    ofScreen: (screenId: string, limit: number) =>
      incidents.find({ screenId }).sort({ openedAt: -1 }).limit(limit).toArray(),
  };
}
export type IncidentRepository = ReturnType<typeof createIncidentRepository>;
