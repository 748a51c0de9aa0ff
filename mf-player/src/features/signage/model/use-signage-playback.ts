import { usePageTimer } from '../../../lib/use-page-timer';
import { usePageStepper } from './use-page-stepper';
import { usePlayState } from './use-play-state';
import { usePlayerSources } from './use-player-sources';

/**
 * The signage player's playback (/signage/:fileId?playlist=&index=&autoplay=), one hook per concern: what the URL
 * asks for and its reads (usePlayerSources), playing, paused or gone (usePlayState), the steps from page to page
 * and item to item with what is on screen, the preloading of what comes next, the live updates and the first screen
 * (usePageStepper), and each page's time on screen (usePageTimer).
 */
export function useSignagePlayback() {
  const sources = usePlayerSources();
  const play = usePlayState(sources.autoplay);
  const { durationMs, ...stepper } = usePageStepper(sources, play);
  // each page stays for its duration, measured from when it appeared: a new page, play/pause or the end restart it
  usePageTimer(play.playing && !play.gone ? stepper.shown.tick : null, durationMs, () => void stepper.advance('next'));
  return { sources, play, ...stepper };
}
