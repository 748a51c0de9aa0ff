import { describe, expect, it } from 'vitest';
import {
  CONTROLS_VISIBLE_MS,
  canTurnPages,
  controlsReveal,
  leaveTarget,
  revealsControls,
  swipeDirection,
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
  it('opened with the page it came from: back to that page of this site, never another site', () => {
    expect(leaveTarget({ historyIndex: 0, referrer: '', origin, from: '/files?q=menu' })).toBe('/files?q=menu');
    expect(leaveTarget({ historyIndex: 0, referrer: '', origin, from: '//elsewhere.example/x' })).toBe('/');
    expect(leaveTarget({ historyIndex: 0, referrer: '', origin, from: 'https://elsewhere.example/x' })).toBe('/');
    expect(leaveTarget({ historyIndex: 0, referrer: '', origin, from: '/signage/f2' })).toBe('/');
  });
  it('alone in a tab of its own (the files page opens it so, without a referrer): closes that tab', () => {
    expect(leaveTarget({ historyIndex: 0, referrer: '', origin, historyLength: 1 })).toBe('close');
    // a tab with pages before the player (typed in, or a link followed) is not closed
    expect(leaveTarget({ historyIndex: 0, referrer: '', origin, historyLength: 3 })).toBe('/');
  });
});

describe('turning pages by touch', () => {
  it('a quick sideways swipe turns the page: to the left the next one, to the right the previous one', () => {
    expect(swipeDirection({ dx: -120, dy: 10, ms: 200 })).toBe('next');
    expect(swipeDirection({ dx: 120, dy: -10, ms: 200 })).toBe('previous');
  });
  it('a short, slow or mostly vertical move is not a swipe', () => {
    expect(swipeDirection({ dx: -30, dy: 0, ms: 100 })).toBeNull();
    expect(swipeDirection({ dx: -200, dy: 0, ms: 2000 })).toBeNull();
    expect(swipeDirection({ dx: -80, dy: 60, ms: 200 })).toBeNull();
  });
  it('previous and next have somewhere to go unless one file has one page', () => {
    expect(canTurnPages(1, 0)).toBe(false);
    expect(canTurnPages(1, 1)).toBe(false);
    expect(canTurnPages(3, 0)).toBe(true);
    expect(canTurnPages(1, 2)).toBe(true); // a playlist goes on to its next file
  });
});
