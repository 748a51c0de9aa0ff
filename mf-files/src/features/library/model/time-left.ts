// Time left of an upload from the rate measured so far: smoothed, so one slow chunk does not make the figure jump.

/** Below this many seconds of measuring, or bytes sent, the rate is not known yet. */
const WARM_UP_MS = 1500;
/** weight of the newest rate sample */
const SMOOTHING = 0.2;

export interface RateMeter {
  /** the seconds left after `sent` of `total` bytes at time `nowMs`, or null while not yet measured */
  sample(sent: number, total: number, nowMs: number): number | null;
  /** after a dropped connection: the rate is measured anew from the next sample */
  restart(): void;
}

export function createRateMeter(): RateMeter {
  let start: { at: number; sent: number } | undefined;
  let last: { at: number; sent: number } | undefined;
  let rate: number | undefined; // bytes per ms
  return {
    sample(sent, total, nowMs) {
      if (!start || !last) {
        start = { at: nowMs, sent };
        last = start;
        return null;
      }
      const dt = nowMs - last.at;
      if (dt > 0 && sent >= last.sent) {
        const now = (sent - last.sent) / dt;
        rate = rate === undefined ? now : rate * (1 - SMOOTHING) + now * SMOOTHING;
        last = { at: nowMs, sent };
      }
      if (nowMs - start.at < WARM_UP_MS || !rate) return null;
      return Math.max(0, Math.ceil((total - sent) / rate / 1000));
    },
    restart() {
      start = undefined;
      last = undefined;
      rate = undefined;
    },
  };
}

/** The words' key and count of a time left: seconds under a minute, minutes under an hour, then hours. */
export function timeLeftWords(seconds: number): {
  key: 'timeLeftSeconds' | 'timeLeftMinutes' | 'timeLeftHours';
  count: number;
} {
  if (seconds < 60) return { key: 'timeLeftSeconds', count: Math.max(1, seconds) };
  if (seconds < 3600) return { key: 'timeLeftMinutes', count: Math.round(seconds / 60) };
  return { key: 'timeLeftHours', count: Math.max(1, Math.round(seconds / 3600)) };
}
