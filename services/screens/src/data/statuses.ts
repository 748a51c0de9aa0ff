import { type ImageError, SCREEN_OFFLINE_AFTER_SECONDS, type ShownReport } from '@pagecast/contracts';
import { followBucket, LRUCache, type Logger, type Nats, openKeyValue } from '@pagecast/service-kit';

/** What a display last reported; kept apart from the screen's record, which only its owner writes. */
export interface ScreenStatus {
  screenId: string;
  ownerId: string;
  lastSeenAt: Date;
  nowPlaying: { fileId: string | null; page: number | null } | null;
  appVersion: string | null;
  screenSize: { width: number; height: number } | null;
  /** absent from values written before, and from older displays' reports: what it shows, as it changed */
  shows?: ShownReport | null;
  /** the display said it is outside its opening hours (the server judges closed by the hours it holds) */
  closedReported?: boolean;
  /** since when (ms) what it shows is not what the resolver says it should; null = right, closed or unknown */
  wrongSince?: number | null;
  /** since when (ms) its images keep failing, across pages (a playlist whose every page fails); null = drawing */
  brokenSince?: number | null;
  /** when (ms, the server's clock) this process first heard of the picture now shown: frozen is judged from it */
  shownSeenAt?: number | null;
  /** the last image that failed to draw on it (kept until another fails) */
  lastImageError?: { error: ImageError; fileId: string; page: number; at: string } | null;
  /**
   * how far ahead of the server's clock the display's was when it sent its last heartbeat (ms, its `sentAt` less the
   * arrival; null: an older display): how far ahead its play records may end
   */
  clockAheadMs?: number | null;
}

export const STATUS_BUCKET = 'screen_status';
/** A status nobody refreshed for a day is gone (the screen shows offline, last seen unknown). */
const STATUS_TTL_MS = Math.max(86_400_000, SCREEN_OFFLINE_AFTER_SECONDS * 1000);

type StoredStatus = Omit<ScreenStatus, 'lastSeenAt'> & { lastSeenAt: string };

const decode = (data: Uint8Array): ScreenStatus | null => {
  if (data.length === 0) return null;
  try {
    const value = JSON.parse(new TextDecoder().decode(data)) as StoredStatus;
    if (typeof value.screenId !== 'string' || typeof value.ownerId !== 'string') return null;
    return { ...value, lastSeenAt: new Date(value.lastSeenAt) };
  } catch {
    return null;
  }
};

/**
 * Heartbeats, in a JetStream key-value bucket (one value per screen), not in the database: every display reports
 * every interval and each report replaces the last, which on FerretDB cost an upsert each (35 a second on this
 * machine, the first limit of the screens load). A put is one message to NATS; every instance sees the same values.
 *
 * Every instance also keeps every value in memory, fed by a watch of the bucket (its values at start,
 * then each put and delete), so a heartbeat reading the previous status and the fleet view reading thousands of
 * statuses ask NATS nothing per screen. A put made here is in the map at once (read your own write); the watch
 * brings the other instances' within milliseconds, and never replaces a value by an older revision.
 */
export async function createStatusRepository(nats: Nats, logger?: Logger) {
  const kv = await openKeyValue(nats, STATUS_BUCKET, { ttlMs: STATUS_TTL_MS });
  const all = new Map<string, { revision: number; status: ScreenStatus }>();
  /** `status`: the value, or how to decode it (not done for a revision held: this instance's own puts come back) */
  const apply = (key: string, revision: number, status: ScreenStatus | null | (() => ScreenStatus | null)) => {
    const held = all.get(key);
    if (held && held.revision >= revision) return;
    const value = typeof status === 'function' ? status() : status;
    if (value) all.set(key, { revision, status: value });
    else all.delete(key);
  };
  // every key, its last values first, then every change; after a failure from the last revision seen (the kit's
  // followBucket); reads wait for the values held at start (10 s at most)
  const mirror = followBucket({
    nats,
    bucket: STATUS_BUCKET,
    open: async () => kv,
    name: 'screen statuses',
    logger,
    onEntry: (e) => apply(e.key, e.revision, e.operation === 'PUT' ? () => decode(e.value) : null),
  });

  /** A value the bucket has dropped by its age (expiry leaves no marker in a watch) is gone here too. */
  const live = (status: ScreenStatus | undefined, now = Date.now()): ScreenStatus | null =>
    status && now - status.lastSeenAt.getTime() <= STATUS_TTL_MS ? status : null;
  const read = async (screenId: string): Promise<ScreenStatus | null> => {
    await mirror.ready;
    return live(all.get(screenId)?.status);
  };
  /** the last contact (heartbeat or play batch) this process handled, per screen: most need no read of the bucket */
  const contacts = new LRUCache<string, number>({ max: 50_000 });
  return {
    async record(status: ScreenStatus): Promise<void> {
      const revision = await kv.put(status.screenId, JSON.stringify(status));
      apply(status.screenId, revision, status);
    },
    noteContact(screenId: string, at: number): void {
      if ((contacts.get(screenId) ?? Number.NEGATIVE_INFINITY) < at) contacts.set(screenId, at);
    },
    /** The last contact this process knows of (another instance may know a later one). */
    contactSeenHere: (screenId: string): number | undefined => contacts.get(screenId),
    /** The statuses of these screens of this owner (a key another owner's screen wrote is left out). */
    async forScreens(ownerId: string, screenIds: string[]): Promise<Map<string, ScreenStatus>> {
      await mirror.ready;
      const out = new Map<string, ScreenStatus>();
      const now = Date.now();
      for (const id of screenIds) {
        const s = live(all.get(id)?.status, now);
        if (s && s.ownerId === ownerId) out.set(id, s);
      }
      return out;
    },
    get: read,
    /** Every screen with a live status (the incident sweep judges these). */
    async screenIds(): Promise<string[]> {
      await mirror.ready;
      const now = Date.now();
      return [...all].flatMap(([id, held]) => (live(held.status, now) ? [id] : []));
    },
    /** Resolves once the values the bucket held at start are in memory. */
    ready: mirror.ready,
    /** Stops the watch (the connection's close stops it too). */
    stop: mirror.stop,
  };
}
export type StatusRepository = Awaited<ReturnType<typeof createStatusRepository>>;
