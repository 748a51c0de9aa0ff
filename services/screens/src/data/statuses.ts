import { SCREEN_OFFLINE_AFTER_SECONDS } from '@pagecast/contracts';
import { type Nats, openKeyValue, setNewest } from '@pagecast/service-kit';

/** What a display last reported; kept apart from the screen's record, which only its owner writes. */
export interface ScreenStatus {
  screenId: string;
  ownerId: string;
  lastSeenAt: Date;
  nowPlaying: { fileId: string | null; page: number | null } | null;
  appVersion: string | null;
  screenSize: { width: number; height: number } | null;
}

export const STATUS_BUCKET = 'screen_status';
/** A status nobody refreshed for a day is gone (the screen shows offline, last seen unknown). */
const STATUS_TTL_MS = Math.max(86_400_000, SCREEN_OFFLINE_AFTER_SECONDS * 1000);

/**
 * Heartbeats, in a JetStream key-value bucket (one value per screen), not in the database: every display reports
 * every interval and each report replaces the last, which on FerretDB cost an upsert each (35 a second on this
 * machine, the first limit of the screens load). A put is one message to NATS; the Screens page reads the values
 * of its owner's screens by key. Every instance sees the same values.
 */
export async function createStatusRepository(nats: Nats) {
  const kv = await openKeyValue(nats, STATUS_BUCKET, { ttlMs: STATUS_TTL_MS });
  const read = async (screenId: string): Promise<ScreenStatus | null> => {
    const entry = await kv.get(screenId);
    if (entry?.operation !== 'PUT' || entry.length === 0) return null;
    const value = entry.json<Omit<ScreenStatus, 'lastSeenAt'> & { lastSeenAt: string }>();
    return { ...value, lastSeenAt: new Date(value.lastSeenAt) };
  };
  /** the last contact (heartbeat or play batch) this process handled, per screen: most need no read of the bucket */
  const contacts = new Map<string, number>();
  return {
    async record(status: ScreenStatus): Promise<void> {
      await kv.put(status.screenId, JSON.stringify(status));
    },
    noteContact(screenId: string, at: number): void {
      if ((contacts.get(screenId) ?? Number.NEGATIVE_INFINITY) < at) setNewest(contacts, screenId, at, 50_000);
    },
    /** The last contact this process knows of (another instance may know a later one). */
    contactSeenHere: (screenId: string): number | undefined => contacts.get(screenId),
    /** The statuses of these screens of this owner (a key another owner's screen wrote is left out). */
    async forScreens(ownerId: string, screenIds: string[]): Promise<Map<string, ScreenStatus>> {
      const found = await Promise.all(screenIds.map(read));
      return new Map(
        found.filter((s): s is ScreenStatus => s !== null && s.ownerId === ownerId).map((s) => [s.screenId, s]),
      );
    },
    get: read,
  };
}
export type StatusRepository = Awaited<ReturnType<typeof createStatusRepository>>;
