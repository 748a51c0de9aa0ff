// watchLastFrame (components/video-slide.tsx): the display swaps to the next loop or item in the animation frame
// whose paint ends the video's last frame's time on screen, not at `ended` (a task, often a frame, later). Driven
// here by a fake element (its presented frames, its media clock) and fake animation frames at 60 Hz: a 30 fps clip
// of 2 s presents its last frame (1.9667 s) at a frame; two frames later (its 33 ms over) the swap comes, not before;
// a stalled clock near the end, or an engine without requestVideoFrameCallback, leaves it to `ended`.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchLastFrame } from '../src/features/display/components/video-slide';

const VSYNC = 1000 / 60;
const PERIOD = 1 / 30;
/** the display's pipeline: a paint started at an animation frame is shown this long after it */
const LEAD = VSYNC;

let frames: ((now: number) => void)[];
let clock: number;
beforeEach(() => {
  frames = [];
  clock = 1000;
  vi.stubGlobal('requestAnimationFrame', (cb: (now: number) => void) => frames.push(cb));
  vi.stubGlobal('cancelAnimationFrame', () => {});
});
afterEach(() => vi.unstubAllGlobals());

function fakeVideo(duration = 2) {
  let callback: ((now: number, meta: { mediaTime: number; expectedDisplayTime: number }) => void) | null = null;
  const el = {
    duration,
    currentTime: 0,
    playbackRate: 1,
    requestVideoFrameCallback(cb: typeof callback) {
      callback = cb;
      return 1;
    },
    cancelVideoFrameCallback() {
      callback = null;
    },
  };
  return {
    el: el as unknown as HTMLVideoElement,
    clockAt: (t: number) => {
      el.currentTime = t;
    },
    /** an animation frame at `clock`; `media`: the frame the video presents at it (its video frame callback first) */
    frame(media?: number) {
      if (media !== undefined) {
        el.currentTime = media;
        const cb = callback;
        callback = null;
        cb?.(clock, { mediaTime: media, expectedDisplayTime: clock + LEAD });
      }
      const due = frames;
      frames = [];
      for (const f of due) f(clock);
      clock += VSYNC;
    },
  };
}

/** Plays `fake` at 30 fps on 60 Hz animation frames from media time `from` to `last` (its last frame); returns the count. */
function playToLastFrame(fake: ReturnType<typeof fakeVideo>, end: () => void, from = 1.5, last = 2 - PERIOD) {
  let n = 0;
  for (let media = from; media <= last + 1e-9; media += PERIOD) {
    fake.frame(media);
    expect(end).not.toHaveBeenCalled();
    fake.clockAt(media + PERIOD / 2);
    fake.frame();
    n += 1;
  }
  return n;
}

describe('the swap at the end of the last frame', () => {
  it('comes at the animation frame when the last frame has had its period on screen, not before', () => {
    const fake = fakeVideo();
    const end = vi.fn();
    watchLastFrame(fake.el, end);
    playToLastFrame(fake, end);
    // the last frame (1.9667 s) was presented two animation frames ago (its second frame now): its 33 ms are over at
    // the next one; the media clock reaches the end
    expect(end).not.toHaveBeenCalled();
    fake.clockAt(2);
    fake.frame();
    expect(end).toHaveBeenCalledTimes(1);
    // once only
    fake.frame();
    fake.frame();
    expect(end).toHaveBeenCalledTimes(1);
  });

  it('waits for `ended` while the media clock stalls short of the end', () => {
    const fake = fakeVideo();
    const end = vi.fn();
    watchLastFrame(fake.el, end);
    // three frames short of the end (within the frames that set when the end comes), the stream stalls: no frame
    // comes, the clock stays there
    playToLastFrame(fake, end, 1.7, 1.9);
    fake.clockAt(1.91);
    for (let i = 0; i < 30; i++) fake.frame();
    expect(end).not.toHaveBeenCalled();
  });

  it('does nothing once stopped (the element left the screen), nor without requestVideoFrameCallback', () => {
    const fake = fakeVideo();
    const end = vi.fn();
    const stop = watchLastFrame(fake.el, end);
    playToLastFrame(fake, end);
    stop();
    fake.clockAt(2);
    fake.frame();
    fake.frame();
    expect(end).not.toHaveBeenCalled();
    const older = { duration: 2, currentTime: 2 } as unknown as HTMLVideoElement;
    const none = vi.fn();
    watchLastFrame(older, none)();
    expect(none).not.toHaveBeenCalled();
  });
});
