// A video's slide on the display: a muted, inline <video> of the file's playable video with its poster page as
// poster, played until it ends. The slide after the current one, when it is a video, is mounted beforehand, hidden,
// loaded (preload="auto") and decoded (played muted a moment, then paused back at its start), so when the current
// slide ends the same element is shown in the same commit: no black frame between items.
// An item set to loop plays again from its start when it ends, as many times as its loops say, before the next
// slide. A seek back to the start on screen holds the last frame for one to three frames while the decoder starts
// again, so a looping item has a second element of the same video, hidden and decoded at its start like the next
// slide's: each loop swaps the two (the one that ended is prepared again behind, while another loop is to come). If
// the second element is not ready (still loading, failed), the one on screen seeks back as a fallback.
// The swap (to the next loop or the next slide) is made in the animation frame whose paint ends the last frame's time
// on screen (watchLastFrame, from requestVideoFrameCallback), else at `ended`, committed at once (flushSync). While
// it plays, the time of the element on screen is told to the display (the play record and the report name the second
// reached); a video whose time stops advancing for VIDEO_FROZEN_SECONDS once it played is told frozen (a loop's swap
// is an advance: it is watched through whichever element is on screen).
import { VIDEO_FROZEN_SECONDS } from '@pagecast/contracts';
import { useTranslation } from '@pagecast/i18n';
import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { Slide } from '../model/slides';

/** How often a playing video's time is looked at for the frozen check. */
export const VIDEO_WATCH_MS = 1000;

/**
 * Watches a playing video's time: `frozen(second)` once when it has not advanced for VIDEO_FROZEN_SECONDS (a
 * decoder or a stream that hung) while the video is neither ended nor paused by the display. `video` is the element,
 * or the element on screen now (a looping item's changes at each loop). Returns its stop.
 */
export function watchVideoTime(
  video: HTMLVideoElement | (() => HTMLVideoElement | null),
  frozen: (second: number) => void,
): () => void {
  const now = typeof video === 'function' ? video : () => video;
  let el = now();
  let last = el?.currentTime ?? 0;
  let still = 0;
  let told = false;
  const timer = setInterval(() => {
    if (told) return;
    const seen = now();
    if (!seen) return;
    // another element came on screen (a loop): an advance, whatever its time
    if (seen !== el || seen.ended || seen.currentTime !== last) {
      el = seen;
      last = seen.currentTime;
      still = 0;
      return;
    }
    still += VIDEO_WATCH_MS;
    if (still >= VIDEO_FROZEN_SECONDS * 1000) {
      told = true;
      frozen(seen.currentTime);
    }
  }, VIDEO_WATCH_MS);
  return () => clearInterval(timer);
}

type VideoSlideOf = Slide & { video: NonNullable<Slide['video']> };

/** What requestVideoFrameCallback tells of a presented frame (the part used here). */
interface FrameMeta {
  mediaTime: number;
  expectedDisplayTime: number;
}
type FrameCallbacks = {
  requestVideoFrameCallback(cb: (now: number, meta: FrameMeta) => void): number;
  cancelVideoFrameCallback(handle: number): void;
};

/**
 * Calls `end()` at the animation frame whose paint replaces the video's last frame once that frame had its time on
 * screen: the `ended` event comes a task (often a frame) later, and the swap it makes is painted a frame later still.
 * From the frames presented (requestVideoFrameCallback): the frame period (the smallest advance of the media time),
 * and, from a frame within a few periods of the end, the time the video's length is reached (its expected display
 * time plus the media time left); each animation frame then checks whether its paint is shown by then. Nothing
 * happens while the media clock is not that close to the end (a stalled stream): `ended` stays the way on. No
 * requestVideoFrameCallback (an older engine): nothing, `ended` does it. Returns its stop.
 */
export function watchLastFrame(el: HTMLVideoElement, end: () => void): () => void {
  const video = el as HTMLVideoElement & Partial<FrameCallbacks>;
  if (typeof video.requestVideoFrameCallback !== 'function') return () => {};
  let stopped = false;
  let period = 0;
  let lastMedia = -1;
  /** when the video's length is reached (performance.now() time), once known */
  let at: number | null = null;
  /** from an animation frame's start to the time its paint is shown */
  let lead = 0;
  let raf = 0;
  let handle = 0;
  const tick = (now: number) => {
    raf = 0;
    if (stopped || at === null) return;
    const nearEnd = Number.isFinite(el.duration) && el.currentTime >= el.duration - 2 * period;
    // a few milliseconds early still counts: the paint lands on the same vsync
    if (nearEnd && now + lead >= at - 4) {
      stopped = true;
      end();
      return;
    }
    raf = requestAnimationFrame(tick);
  };
  const onFrame = (now: number, meta: FrameMeta) => {
    if (stopped) return;
    const advance = meta.mediaTime - lastMedia;
    if (lastMedia >= 0 && advance > 0.001 && advance < 0.1) period = period ? Math.min(period, advance) : advance;
    lastMedia = meta.mediaTime;
    lead = Math.max(0, meta.expectedDisplayTime - now);
    const left = el.duration - meta.mediaTime;
    if (period && Number.isFinite(left) && left >= 0 && left <= 3 * period) {
      at = meta.expectedDisplayTime + (left * 1000) / (el.playbackRate || 1);
      if (!raf) raf = requestAnimationFrame(tick);
    }
    handle = video.requestVideoFrameCallback?.(onFrame) ?? 0;
  };
  handle = video.requestVideoFrameCallback(onFrame);
  return () => {
    stopped = true;
    video.cancelVideoFrameCallback?.(handle);
    if (raf) cancelAnimationFrame(raf);
  };
}

/** Decodes a prepared video's first frame: played muted, then paused back at 0 once playback began. */
export function prepareVideo(el: HTMLVideoElement): () => void {
  let stopped = false;
  el.muted = true;
  delete el.dataset.prepared;
  Promise.resolve(el.play()).then(
    () => {
      if (stopped) return;
      el.pause();
      el.currentTime = 0;
      el.dataset.prepared = 'true';
    },
    // not playable (yet): it is tried again when it comes on screen, and skipped if it fails there
    () => {},
  );
  return () => {
    stopped = true;
  };
}

/** A hidden element can take the next loop at once: prepared, paused at its start with a frame decoded, no error. */
export const readyForLoop = (el: HTMLVideoElement | null): el is HTMLVideoElement =>
  !!el &&
  el.dataset.prepared === 'true' &&
  !el.error &&
  el.paused &&
  !el.seeking &&
  el.readyState >= 2 &&
  el.currentTime < 0.05;

/**
 * Where a looping showing is: `lap` loops played to their end so far, `shown` the element on screen (0 or 1). The
 * other element is mounted, prepared, while a loop after the one on screen is to come.
 */
export interface Laps {
  lap: number;
  shown: 0 | 1;
}

/**
 * What an element's end does: `next` (the showing is over), `swap` (the other element, ready, takes the next loop) or
 * `seek` (the same element again from its start: the other is not ready).
 */
export function afterLoop(
  laps: Laps,
  loops: number,
  otherReady: boolean,
): { by: 'next' } | { by: 'swap' | 'seek'; laps: Laps } {
  const lap = laps.lap + 1;
  if (lap >= loops) return { by: 'next' };
  if (otherReady) return { by: 'swap', laps: { lap, shown: laps.shown === 0 ? 1 : 0 } };
  return { by: 'seek', laps: { lap, shown: laps.shown } };
}

export function VideoSlide({
  slide,
  step,
  active,
  onEnded,
  onPlaying,
  onFailed,
  onTime,
  onFrozen,
}: {
  slide: VideoSlideOf;
  /** the showing this element is for (the current one, or the next) */
  step: number;
  /** on screen (else prepared, hidden) */
  active: boolean;
  onEnded: (step: number) => void;
  onPlaying: () => void;
  onFailed: () => void;
  /** on screen: the video's time, as it advances (seconds) */
  onTime?: (second: number) => void;
  /** on screen: its time stopped advancing (watchVideoTime) */
  onFrozen?: (second: number) => void;
}) {
  const loops = Math.max(1, slide.loops ?? 1);
  const [laps, setLaps] = useState<Laps>({ lap: 0, shown: 0 });
  const lapsRef = useRef(laps);
  lapsRef.current = laps;
  const els = useRef<[HTMLVideoElement | null, HTMLVideoElement | null]>([null, null]);
  const activeRef = useRef(active);
  activeRef.current = active;
  const failedRef = useRef(onFailed);
  failedRef.current = onFailed;
  const frozenRef = useRef(onFrozen);
  frozenRef.current = onFrozen;
  const stopWatch = useRef<(() => void) | null>(null);
  useEffect(
    () => () => {
      stopWatch.current?.();
      stopWatch.current = null;
    },
    [],
  );

  /** the element `which`'s event counts only while it is the one on screen */
  const onScreen = (which: 0 | 1) => activeRef.current && lapsRef.current.shown === which;
  const ended = (which: 0 | 1, el: HTMLVideoElement) => {
    if (!onScreen(which)) return;
    // at its end (ended, or its last frame's time on screen over): the second reached is its length
    onTime?.(Number.isFinite(el.duration) ? Math.max(el.currentTime, el.duration) : el.currentTime);
    const other = els.current[which === 0 ? 1 : 0];
    const after = afterLoop(lapsRef.current, loops, readyForLoop(other));
    if (after.by === 'next') {
      // committed now, so the next animation frame paints the next slide's element (decoded ahead)
      flushSync(() => onEnded(step));
      return;
    }
    if (after.by === 'seek') {
      // the ended element keeps its last frame on screen while it seeks back
      el.currentTime = 0;
      Promise.resolve(el.play()).catch(() => {});
    }
    lapsRef.current = after.laps;
    flushSync(() => setLaps(after.laps));
  };

  // the second element is needed while a loop after the one on screen is to come
  const both = active && laps.lap + 1 < loops;
  const which: (0 | 1)[] = both ? [0, 1] : [laps.shown];
  return (
    <>
      {which.map((w) => (
        <LoopVideo
          key={w}
          slide={slide}
          step={step}
          lap={w === laps.shown ? laps.lap : laps.lap + 1}
          role={w !== laps.shown ? 'lap' : active ? 'current' : 'next'}
          elRef={(el) => {
            els.current[w] = el;
          }}
          onEnded={(el) => ended(w, el)}
          onPlaying={(el) => {
            if (!onScreen(w)) return;
            onPlaying();
            // once it plays, a time that stops advancing (on whichever element is on screen) is frozen
            if (!stopWatch.current) {
              stopWatch.current = watchVideoTime(
                () => els.current[lapsRef.current.shown] ?? el,
                (second) => frozenRef.current?.(second),
              );
            }
          }}
          onTime={(el) => {
            if (onScreen(w)) onTime?.(el.currentTime);
          }}
          onError={() => {
            if (onScreen(w)) failedRef.current();
          }}
        />
      ))}
    </>
  );
}

/**
 * One <video> of a video slide: on screen (`current`: played), or hidden (`next`: the next slide's, `lap`: a looping
 * slide's next loop), loaded and decoded at its start.
 */
function LoopVideo({
  slide,
  step,
  lap,
  role,
  elRef,
  onEnded,
  onPlaying,
  onTime,
  onError,
}: {
  slide: VideoSlideOf;
  step: number;
  /** the loop (from 0) it plays or is prepared for */
  lap: number;
  role: 'current' | 'next' | 'lap';
  elRef: (el: HTMLVideoElement | null) => void;
  onEnded: (el: HTMLVideoElement) => void;
  onPlaying: (el: HTMLVideoElement) => void;
  onTime: (el: HTMLVideoElement) => void;
  onError: () => void;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLVideoElement>(null);
  const shown = role === 'current';
  const errorRef = useRef(onError);
  errorRef.current = onError;
  const endedRef = useRef(onEnded);
  endedRef.current = onEnded;

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (!shown) return prepareVideo(el);
    // it failed while it was prepared: reported and skipped now it is its turn
    if (el.error) {
      errorRef.current();
      return;
    }
    el.muted = true;
    Promise.resolve(el.play()).catch(() => {
      // refused or failed: an error event reports it; otherwise the stall guard moves on
    });
    // the next loop or slide comes as the last frame's time is over, not a task or a frame after it (`ended`)
    return watchLastFrame(el, () => endedRef.current(el));
  }, [shown]);

  return (
    <video
      ref={(el) => {
        ref.current = el;
        elRef(el);
      }}
      className={shown ? 'pc-display__page pc-display__video' : 'pc-display__page pc-display__video pc-display__next'}
      src={slide.video.url}
      poster={slide.imagePath}
      muted
      playsInline
      preload="auto"
      aria-label={t('screens.display.pageAlt', { page: slide.page + 1 })}
      aria-hidden={shown ? undefined : true}
      data-file={slide.fileId}
      data-page={slide.page}
      data-step={step}
      data-loops={slide.loops ?? 1}
      data-lap={lap}
      data-state={role}
      onPlaying={(e) => onPlaying(e.currentTarget)}
      onTimeUpdate={(e) => onTime(e.currentTarget)}
      onEnded={(e) => onEnded(e.currentTarget)}
      onError={() => onError()}
    />
  );
}
