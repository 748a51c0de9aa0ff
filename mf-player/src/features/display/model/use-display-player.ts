// What the paired display shows: its manifest (own assignment, its groups' in order, the takeovers that concern it)
// resolved by the shared resolver on the display's own clock (so it switches at a schedule boundary or a takeover's
// start and end by itself, also offline), each page for its duration, each page shown recorded as proof of play.
// A message takeover has no pages: the page renders it full-screen. Outside its opening hours (`active` false) it
// loads, shows and records nothing (a page on screen at closing counts until then).
import {
  type DeviceScreen,
  deviceInputs,
  type FilePage,
  nextChange,
  type PlayRecord,
  type Resolution,
  type ResolutionInputs,
  resolveScreen,
  type Shown,
} from '@pagecast/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { usePageTimer } from '../../../lib/use-page-timer';
import { keepForOffline, registerPlayerServiceWorker } from '../../../sw/register';
import { type ContentLink, contentReads, displayReads } from './content-reads';
import { assignedMedia, type ContentReads, KEEP_EVERY_MS, mediaOfSlides } from './keep-offline';
import { retryDelay, type WaitingBoard } from './retry';
import { pageSlides, playRecordOf, type Slide, slideAfter, slideTimerMs } from './slides';

export type { Slide };

/** Last good answers, for a network cut (the service worker also keeps them for a reload). */
const lastGood = new Map<string, unknown>();
async function kept<T>(key: string, read: () => Promise<T>): Promise<T> {
  try {
    const value = await read();
    lastGood.set(key, value);
    return value;
  } catch (err) {
    if (lastGood.has(key)) return lastGood.get(key) as T;
    throw err;
  }
}

/** The slides of what plays; `missing`: a file whose pages could not be read (and none were kept), tried again. */
async function slidesOf(playing: Shown, read: ContentReads): Promise<{ slides: Slide[]; missing: boolean }> {
  let fileIds: string[] = [];
  /** a playlist's video items: how many times each plays in a row */
  const loops = new Map<string, number>();
  if (playing.kind === 'file') fileIds = [playing.fileId];
  // a disaster alert whose rule shows a file: its pages, under the band of the report's facts
  else if (playing.kind === 'alert' && playing.fileId) fileIds = [playing.fileId];
  else if (playing.kind === 'playlist') {
    const items = await kept(`pl:${playing.playlistId}`, () => read.playlist(playing.playlistId));
    const playable = [...items].sort((a, b) => a.position - b.position).filter((i) => i.file !== null);
    fileIds = playable.map((i) => i.fileId);
    for (const i of playable) if (i.loops && i.loops > 1) loops.set(i.fileId, i.loops);
  }
  const slides: Slide[] = [];
  let missing = false;
  for (const fileId of fileIds) {
    let pages: FilePage[];
    try {
      pages = await kept(`pages:${fileId}`, () => read.pages(fileId));
    } catch {
      missing = true; // gone or unreadable: the rest still plays, and it is asked for again
      continue;
    }
    slides.push(...pageSlides(fileId, pages, loops.get(fileId)));
  }
  // what plays now, kept at once (its videos whole, in the background); all that is assigned follows (below)
  void keepForOffline(mediaOfSlides(slides), false);
  return { slides, missing };
}

const keyOf = (p: Shown) => JSON.stringify(p);
/** The clock re-resolves at the next change point, and at least this often (a clock set by hand, a sleeping tab). */
const RECHECK_MS = 5000;

/**
 * Everything the screen may play, kept for a network cut (keep-offline.ts): at each change of the manifest or of the
 * content, and every KEEP_EVERY_MS; a round started with the slides' reads of the same change shares them
 * (`sharedReads`), any other reads afresh. Closed, nothing is fetched.
 */
function useOfflineKeeper(
  inputs: ResolutionInputs,
  version: number,
  active: boolean,
  read: ContentReads,
  sharedReads: () => ContentReads | undefined,
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: version forces a new round; sharedReads is read at that moment
  useEffect(() => {
    if (!active) return;
    let stale = false;
    const round = async (reads: ContentReads) => {
      // no worker (blocked, an insecure origin): nothing to keep, nothing read
      if (!(await registerPlayerServiceWorker())) return;
      const { items, complete } = await assignedMedia(inputs, reads);
      if (!stale) await keepForOffline(items, complete);
    };
    // a round that fails (the worker went away) changes nothing: the next one tries again
    const again = (reads: ContentReads) => void round(reads).catch(() => undefined);
    again(sharedReads() ?? contentReads(read));
    const timer = setInterval(() => again(contentReads(read)), KEEP_EVERY_MS);
    return () => {
      stale = true;
      clearInterval(timer);
    };
  }, [inputs, version, active, read]);
}

export function useDisplayPlayer(
  screen: DeviceScreen,
  opts: {
    version: number;
    active: boolean;
    onPlayed: (record: PlayRecord) => void;
    board: WaitingBoard;
    /** the second a showing's video reached (its play record names it), null when not known */
    reachedOf?: (step: number) => number | null;
    /** the display's socket: the content is read over it while it is live (none: over HTTP) */
    link?: ContentLink | null;
  },
) {
  const inputs = useMemo(() => deviceInputs(screen), [screen]);
  const link = opts.link ?? null;
  const read = useMemo(() => displayReads(link), [link]);
  const [resolution, setResolution] = useState<Resolution>(() => resolveScreen(inputs, Date.now()));
  const playing = resolution.playing;
  const [slides, setSlides] = useState<Slide[]>([]);
  const slidesRef = useRef<Slide[]>([]);
  /** pages shown so far: the slide is step % slides.length, and every step is a new showing (one-page loops too) */
  const [step, setStep] = useState(0);
  const shownAt = useRef<{ slide: Slide; step: number; at: number } | null>(null);
  const onPlayed = useRef(opts.onPlayed);
  onPlayed.current = opts.onPlayed;
  const reachedOf = useRef(opts.reachedOf);
  reachedOf.current = opts.reachedOf;

  // The clock: resolve now, then again at the next change point (a takeover's end, a day-part boundary) or after
  // RECHECK_MS, whichever is first; a change of what plays switches at once.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const at = Date.now();
      const now = resolveScreen(inputs, at);
      setResolution((current) => (JSON.stringify(current) === JSON.stringify(now) ? current : now));
      const next = nextChange(inputs, at);
      timer = setTimeout(tick, next === null ? RECHECK_MS : Math.min(RECHECK_MS, Math.max(0, next - at) + 1));
    };
    tick();
    return () => clearTimeout(timer);
  }, [inputs]);

  // The slides of what plays (again after a live change: opts.version).
  const playingKey = keyOf(playing);
  // Nothing readable yet (the assignment may reach the files service a moment after the display, the network is
  // cut): try again, waiting longer each time (retry.ts); `failures` counts the tries that failed in a row.
  const [retry, setRetry] = useState(0);
  const failures = useRef(0);
  const active = opts.active;
  const board = opts.board;
  // The reads of the change this render committed: the slides' effect starts them, and the keeper's round started in
  // the same commit shares them (content-reads.ts); a round started at another moment reads afresh.
  const thisCommit = {};
  const changeReads = useRef<{ commit: object; reads: ContentReads } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: playingKey stands for playing; version and retry force a reload; thisCommit only names the commit
  useEffect(() => {
    if (!active) {
      // closed: nothing on screen, nothing fetched; at opening the slides are read again
      board.done('content');
      slidesRef.current = [];
      setSlides([]);
      setStep(0);
      return;
    }
    let stale = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const again = () => {
      failures.current += 1;
      const ms = retryDelay(failures.current);
      board.wait('content', Date.now() + ms);
      timer = setTimeout(() => setRetry((n) => n + 1), ms);
    };
    const reads = contentReads(read);
    changeReads.current = { commit: thisCommit, reads };
    slidesOf(playing, reads)
      .then(({ slides: next, missing }) => {
        if (stale) return;
        if (JSON.stringify(slidesRef.current) !== JSON.stringify(next)) {
          slidesRef.current = next;
          setSlides(next);
          setStep(0);
        }
        const hasContent =
          playing.kind === 'file' || playing.kind === 'playlist' || (playing.kind === 'alert' && !!playing.fileId);
        if (hasContent && (missing || next.length === 0)) again();
        else {
          failures.current = 0;
          board.done('content');
        }
      })
      .catch(() => {
        if (!stale) again();
      });
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [playingKey, opts.version, retry, active, board, read]);
  useEffect(() => () => board.done('content'), [board]);

  useOfflineKeeper(inputs, opts.version, active, read, () =>
    changeReads.current?.commit === thisCommit ? changeReads.current.reads : undefined,
  );

  const slide = active && slides.length ? slides[step % slides.length] : undefined;

  // One showing of a page: each step is a new one, even of the same page (a one-page loop); `at` = when it appeared.
  const showing = useMemo(() => (slide ? { slide, step, at: Date.now() } : null), [slide, step]);

  // Proof of play: a page counts from when it appears until another replaces it.
  useEffect(() => {
    const close = () => {
      const shown = shownAt.current;
      if (!shown) return;
      const reached = shown.slide.video ? (reachedOf.current?.(shown.step) ?? null) : null;
      const record = playRecordOf(shown.slide, shown.at, Date.now(), crypto.randomUUID(), reached);
      if (record) onPlayed.current(record);
      shownAt.current = null;
    };
    if (showing) shownAt.current = { slide: showing.slide, step: showing.step, at: showing.at };
    return close;
  }, [showing]);

  // Advance after the page's duration; a video moves on when it ends (`finished`), the timer only guards a stall.
  usePageTimer(
    showing,
    () => (showing ? slideTimerMs(showing.slide) : null),
    () => setStep((n) => n + 1),
  );
  /** The showing `ofStep` is over (its video ended, or failed and was reported): the next slide, once. */
  const finished = useCallback((ofStep: number) => setStep((n) => (n === ofStep ? n + 1 : n)), []);
  /** the slide after this one, prepared ahead (a video is loaded and decoded before the current one ends) */
  const next = active ? slideAfter(slides, step) : undefined;

  return { playing, because: resolution.because, slide, showing, next, finished, watched: { slides } };
}
