import { useCallback, useMemo, useRef } from 'react';

const absolute = (url: string) => new URL(url, window.location.href).href;

export type ShowResult = 'shown' | 'failed' | 'superseded';

/**
 * Two stacked <img> layers, driven directly (their src is not a React prop): the next page is loaded and decoded
 * in the hidden layer, then the layers swap in one step, so no frame is ever blank between pages.
 */
export function useLayeredImage() {
  const layers = useRef<[HTMLImageElement | null, HTMLImageElement | null]>([null, null]);
  const front = useRef(0);
  const generation = useRef(0);
  /** url → decode promise of the hidden layer */
  const prepared = useRef<{ url: string; ready: Promise<boolean> } | null>(null);

  const setLayer = useCallback(
    (i: 0 | 1) => (el: HTMLImageElement | null) => {
      layers.current[i] = el;
    },
    [],
  );

  /** Loads url into the hidden layer and decodes it (no-op if it is already there). */
  const prepare = useCallback((url: string): Promise<boolean> => {
    const back = layers.current[front.current === 0 ? 1 : 0];
    if (!back) return Promise.resolve(false);
    if (prepared.current?.url === url && back.src === absolute(url)) return prepared.current.ready;
    back.src = url;
    const ready = back.decode().then(
      () => true,
      () => false,
    );
    prepared.current = { url, ready };
    return ready;
  }, []);

  /** Shows url: decoded in the hidden layer first, then the layers swap. */
  const show = useCallback(
    async (url: string): Promise<ShowResult> => {
      const mine = ++generation.current;
      const frontEl = layers.current[front.current];
      if (frontEl && frontEl.src === absolute(url) && frontEl.complete && frontEl.naturalWidth > 0) return 'shown';
      let ok = await prepare(url);
      if (mine !== generation.current) return 'superseded';
      // the hidden layer may have been reused for something else meanwhile
      if (!ok || layers.current[front.current === 0 ? 1 : 0]?.src !== absolute(url)) {
        prepared.current = null;
        ok = await prepare(url);
        if (mine !== generation.current) return 'superseded';
      }
      if (!ok) return 'failed';
      const next = front.current === 0 ? 1 : 0;
      const incoming = layers.current[next];
      const outgoing = layers.current[front.current];
      incoming?.setAttribute('data-front', 'true');
      outgoing?.setAttribute('data-front', 'false');
      front.current = next;
      prepared.current = null;
      return 'shown';
    },
    [prepare],
  );

  /** The layer on screen (tests and the stage read it). */
  const frontImage = useCallback(() => layers.current[front.current], []);

  return useMemo(() => ({ setLayer, prepare, show, frontImage }), [setLayer, prepare, show, frontImage]);
}
