// What the paired display shows: the assignment resolved on the display's own clock every second (so it switches
// at a schedule boundary by itself, also offline), each page for its duration, each page shown recorded as proof
// of play.
import { type DeviceScreen, type FilePage, type Playing, type PlayRecord, resolvePlaying } from '@pagecast/contracts';
import { useEffect, useRef, useState } from 'react';
import { precacheForOffline } from '../../../sw/register';
import { getDisplayPages, getDisplayPlaylist } from '../api/get-content';
import { pageSlides, playRecordOf, type Slide } from './slides';

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

async function slidesOf(playing: Playing): Promise<Slide[]> {
  let fileIds: string[] = [];
  if (playing.kind === 'file') fileIds = [playing.fileId];
  else if (playing.kind === 'playlist') {
    const items = await kept(`pl:${playing.playlistId}`, () => getDisplayPlaylist(playing.playlistId));
    fileIds = [...items]
      .sort((a, b) => a.position - b.position)
      .filter((i) => i.file !== null)
      .map((i) => i.fileId);
  }
  const slides: Slide[] = [];
  for (const fileId of fileIds) {
    let pages: FilePage[];
    try {
      pages = await kept(`pages:${fileId}`, () => getDisplayPages(fileId));
    } catch {
      continue; // gone or unreadable: the rest still plays
    }
    slides.push(...pageSlides(fileId, pages));
  }
  void precacheForOffline(slides.map((s) => s.imagePath));
  return slides;
}

const keyOf = (p: Playing) => JSON.stringify(p);
const RETRY_MS = 3000;

export function useDisplayPlayer(
  screen: DeviceScreen,
  opts: { version: number; onPlayed: (record: PlayRecord) => void },
) {
  const [playing, setPlaying] = useState<Playing>(() => resolvePlaying(screen.assignment, screen.timeZone, Date.now()));
  const [slides, setSlides] = useState<Slide[]>([]);
  const slidesRef = useRef<Slide[]>([]);
  /** pages shown so far: the slide is step % slides.length, and every step is a new showing (one-page loops too) */
  const [step, setStep] = useState(0);
  const shownAt = useRef<{ slide: Slide; at: number } | null>(null);
  const onPlayed = useRef(opts.onPlayed);
  onPlayed.current = opts.onPlayed;

  // The clock: re-resolve every second; a change of what plays switches at once.
  useEffect(() => {
    const tick = () => {
      const now = resolvePlaying(screen.assignment, screen.timeZone, Date.now());
      setPlaying((current) => (keyOf(current) === keyOf(now) ? current : now));
    };
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [screen.assignment, screen.timeZone]);

  // The slides of what plays (again after a live change: opts.version).
  const playingKey = keyOf(playing);
  // Nothing readable yet (the assignment may reach the files service a moment after the display): try again.
  const [retry, setRetry] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: playingKey stands for playing; version and retry force a reload
  useEffect(() => {
    let stale = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const again = () => {
      timer = setTimeout(() => setRetry((n) => n + 1), RETRY_MS);
    };
    slidesOf(playing)
      .then((next) => {
        if (stale) return;
        if (JSON.stringify(slidesRef.current) !== JSON.stringify(next)) {
          slidesRef.current = next;
          setSlides(next);
          setStep(0);
        }
        if (next.length === 0 && playing.kind !== 'none') again();
      })
      .catch(() => {
        if (!stale) again();
      });
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [playingKey, opts.version, retry]);

  const slide = slides.length ? slides[step % slides.length] : undefined;

  // Proof of play: a page counts from when it appears until another replaces it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each step is a new showing, even of the same page
  useEffect(() => {
    const close = () => {
      const shown = shownAt.current;
      if (!shown) return;
      const record = playRecordOf(shown.slide, shown.at, Date.now(), crypto.randomUUID());
      if (record) onPlayed.current(record);
      shownAt.current = null;
    };
    if (slide) shownAt.current = { slide, at: Date.now() };
    return close;
  }, [slide, step]);

  // Advance after the page's duration.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each step starts the next page's timer
  useEffect(() => {
    if (!slide || slides.length === 0) return;
    const timer = setTimeout(() => setStep((n) => n + 1), slide.seconds * 1000);
    return () => clearTimeout(timer);
  }, [slide, slides.length, step]);

  return { playing, slide, watched: { slides } };
}
