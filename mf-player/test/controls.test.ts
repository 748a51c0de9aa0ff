import { describe, expect, it } from 'vitest';
import {
  CONTROLS_VISIBLE_MS,
  controlsReveal,
  leaveTarget,
  revealsControls,
  type Timers,
} from '../src/features/signage/model/controls';

/** Timers the test moves by hand: what is due runs when the clock passes it. */
function manualTimers() {
  let now = 0;
  let next = 1;
  const due = new Map<number, { at: number; run: () => void }>();
  const timers: Timers = {
    set: (run, ms) => {
      const id = next++;
      due.set(id, { at: now + ms, run });
      return id;
    },
    clear: (id) => {
      due.delete(id as number);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, t] of [...due]) {
      if (t.at <= now) {
        due.delete(id);
        t.run();
      }
    }
  };
  return { timers, advance, pending: () => due.size };
}

describe('the controls of a playing player', () => {
  it('show on a tap or a click, and on a mouse that moves; not on a finger sliding', () => {
    expect(revealsControls({ type: 'click' })).toBe(true);
    expect(revealsControls({ type: 'pointermove', pointerType: 'mouse' })).toBe(true);
    expect(revealsControls({ type: 'pointermove', pointerType: 'touch' })).toBe(false);
    expect(revealsControls({ type: 'pointermove', pointerType: 'pen' })).toBe(false);
    expect(revealsControls({ type: 'keydown' })).toBe(false);
  });

  it('hide a few seconds after the last tap; each tap keeps them for as long again', () => {
    const clock = manualTimers();
    const seen: boolean[] = [];
    const reveal = controlsReveal((v) => seen.push(v), CONTROLS_VISIBLE_MS, clock.timers);
    reveal.poke();
    expect(seen).toEqual([true]);
    clock.advance(CONTROLS_VISIBLE_MS - 1);
    reveal.poke(); // a second tap: no new change, a new delay
    expect(seen).toEqual([true]);
    clock.advance(CONTROLS_VISIBLE_MS - 1);
    expect(seen).toEqual([true]);
    clock.advance(1);
    expect(seen).toEqual([true, false]);
    expect(clock.pending()).toBe(0);
    reveal.poke();
    expect(seen).toEqual([true, false, true]);
  });

  it('hide at once, with no timer left, when playback stops', () => {
    const clock = manualTimers();
    const seen: boolean[] = [];
    const reveal = controlsReveal((v) => seen.push(v), CONTROLS_VISIBLE_MS, clock.timers);
    reveal.stop();
    expect(seen).toEqual([]);
    reveal.poke();
    reveal.stop();
    expect(seen).toEqual([true, false]);
    expect(clock.pending()).toBe(0);
  });
});

describe('leaving the player', () => {
  const origin = 'https://pagecast.example';
  it('goes back when it was reached inside the app', () => {
    expect(leaveTarget({ historyIndex: 2, referrer: `${origin}/files`, origin })).toBe(-1);
  });
  it('opened in a new tab: to the page of the app that opened it, with its query', () => {
    expect(leaveTarget({ historyIndex: 0, referrer: `${origin}/playbook?tab=playlists`, origin })).toBe(
      '/playbook?tab=playlists',
    );
    expect(leaveTarget({ historyIndex: null, referrer: `${origin}/files`, origin })).toBe('/files');
  });
  it('else the start page: no referrer, another site, another player page or the login page', () => {
    expect(leaveTarget({ historyIndex: 0, referrer: '', origin })).toBe('/');
    expect(leaveTarget({ historyIndex: 0, referrer: 'https://elsewhere.example/files', origin })).toBe('/');
    expect(leaveTarget({ historyIndex: 0, referrer: `${origin}/signage/f1?autoplay=true`, origin })).toBe('/');
    expect(leaveTarget({ historyIndex: 0, referrer: `${origin}/login`, origin })).toBe('/');
    expect(leaveTarget({ historyIndex: 0, referrer: 'not a url', origin })).toBe('/');
  });
});
