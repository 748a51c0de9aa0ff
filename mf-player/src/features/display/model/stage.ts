// How the display's stage hangs: the whole picture (pages, messages, the idle name) is drawn on a fixed
// stage turned clockwise by the screen's rotation, so a portrait-mounted screen shows portrait content upright. For
// 90 and 270 the stage takes the window's height as its width (and its width as its height); what fits the page
// (object-fit) and the message's type are then laid out on the turned size.
import type { ScreenRotation } from '@pagecast/contracts';
import { useEffect, useState } from 'react';

export interface StageLayout {
  rotation: ScreenRotation;
  /** the stage's own (untransformed) size: what the content is laid out on */
  width: number;
  height: number;
  /** centred on the window, then turned: its turned box covers the window exactly */
  transform: string;
}

export interface Viewport {
  width: number;
  height: number;
}

/** The stage of a window of this size for this rotation (absent = 0, an older server). */
export function stageLayout(rotation: ScreenRotation | undefined, viewport: Viewport): StageLayout {
  const r = rotation ?? 0;
  const sideways = r === 90 || r === 270;
  return {
    rotation: r,
    width: sideways ? viewport.height : viewport.width,
    height: sideways ? viewport.width : viewport.height,
    transform: `translate(-50%, -50%) rotate(${r}deg)`,
  };
}

const windowSize = (): Viewport => ({ width: window.innerWidth, height: window.innerHeight });

/** The stage for the window as it is now, again when the window changes size or the rotation changes. */
export function useStageLayout(rotation: ScreenRotation | undefined): StageLayout {
  const [viewport, setViewport] = useState(windowSize);
  useEffect(() => {
    const resized = () => setViewport(windowSize());
    window.addEventListener('resize', resized);
    return () => window.removeEventListener('resize', resized);
  }, []);
  return stageLayout(rotation, viewport);
}
