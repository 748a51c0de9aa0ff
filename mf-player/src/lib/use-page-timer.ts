import { useEffect, useRef } from 'react';

/**
 * Calls `onDue` once a page has been on screen for its duration (the signage player's autoplay, a display's
 * pages). `showing` stands for one showing of a page: each new value starts the timer afresh (a new page, or the
 * same page shown again), null stops it. Nothing else restarts it: the duration is read when the timer starts and
 * `onDue` when it fires, so a render in between (an update arriving mid-page) leaves the page its full time.
 */
export function usePageTimer(showing: unknown, durationMs: () => number | null, onDue: () => void): void {
  const duration = useRef(durationMs);
  duration.current = durationMs;
  const due = useRef(onDue);
  due.current = onDue;
  useEffect(() => {
    if (showing === null) return;
    const ms = duration.current();
    if (ms === null) return;
    const timer = setTimeout(() => due.current(), ms);
    return () => clearTimeout(timer);
  }, [showing]);
}
