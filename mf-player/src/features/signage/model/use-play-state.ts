import { useCallback, useState } from 'react';

/**
 * Playing or paused (autoplay from the URL at first), and whether what was asked for is gone (deleted, its licence
 * ended, a playlist with nothing playable left): a gone player stops and stays stopped until something plays again.
 */
export function usePlayState(autoplay: boolean) {
  const [playing, setPlaying] = useState(autoplay);
  const [gone, setGone] = useState(false);
  const markGone = useCallback(() => {
    setGone(true);
    setPlaying(false);
  }, []);
  const clearGone = useCallback(() => setGone(false), []);
  return { playing, setPlaying, gone, markGone, clearGone };
}

export type PlayState = ReturnType<typeof usePlayState>;
