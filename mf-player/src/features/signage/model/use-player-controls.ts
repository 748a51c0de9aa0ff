import type { Dispatch, SetStateAction } from 'react';
import { useControlsVisible, useLeavePlayer, usePlayerKeys } from './use-player-environment';

/**
 * The player's controls: the keys (spec point 6), whether the controls show while playing (a tap or a mouse move
 * reveals them), and the leave button, which stops playback and leaves fullscreen before it leaves the page.
 */
export function usePlayerControls(opts: {
  playing: boolean;
  setPlaying: Dispatch<SetStateAction<boolean>>;
  advance: (direction: 'next' | 'previous') => Promise<void>;
  exitFullscreen: () => void;
}) {
  const { playing, setPlaying, advance, exitFullscreen } = opts;
  usePlayerKeys((action) => {
    if (action === 'stop') {
      setPlaying(false);
      exitFullscreen();
    } else if (action === 'toggle') setPlaying((p) => !p);
    else void advance(action);
  });
  const visible = useControlsVisible(playing);
  const leavePage = useLeavePlayer();
  const leave = () => {
    setPlaying(false);
    exitFullscreen();
    leavePage();
  };
  return { visible, leave };
}
