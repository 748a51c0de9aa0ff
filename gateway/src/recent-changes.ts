// The ids live events concerned lately (events.ts, LiveLimits.recentChangeMs): a stream that opens on one is told to
// resync, since its client's reads may predate the change.

/**
 * How much older than a client's `since` a change must be for the client's reads to include it for sure: `since` is
 * the Date header of the client's first read (whole seconds, from the service that answered, after its read), and
 * the change's time is when this gateway heard of it.
 */
export const SINCE_SLACK_MS = 5000;

export function recentChanges(recentChangeMs: number) {
  /** watch key -> when an event last concerned it, oldest first, only the last recentChangeMs (see LiveLimits) */
  const changedAt = new Map<string, number>();
  const forgetOldChanges = (now: number) => {
    for (const [key, at] of changedAt) {
      if (now - at <= recentChangeMs) break;
      changedAt.delete(key);
    }
  };
  const noteChanges = (keys: string[], now: number) => {
    for (const key of keys) {
      changedAt.delete(key); // re-inserted at the end: the map stays in time order
      changedAt.set(key, now);
    }
    forgetOldChanges(now);
  };
  /** A change to one of `keys` in the last recentChangeMs that reads made at `since` may not include. */
  const changedRecently = (keys: string[], now: number, since: number | undefined) =>
    keys.some((key) => {
      const at = changedAt.get(key);
      return at !== undefined && now - at <= recentChangeMs && (since === undefined || at > since - SINCE_SLACK_MS);
    });
  return {
    note: noteChanges,
    changedRecently,
    /** how many ids changed within recentChangeMs */
    get size() {
      forgetOldChanges(Date.now());
      return changedAt.size;
    },
  };
}
