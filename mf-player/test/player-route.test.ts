import { describe, expect, it } from 'vitest';
import { type PlayerRoute, PlayerRouteTracker } from '../src/features/signage/model/use-player-route';

const at = (fileId: string, index: number, playlistId: string | null = 'p1'): PlayerRoute => ({
  fileId,
  playlistId,
  index,
});

describe("the player's route (ahead of the URL when the player moves itself)", () => {
  it('follows a URL changed by other means (a link, a URL typed by hand)', () => {
    const route = new PlayerRouteTracker(at('a', 0));
    route.fromUrl(at('a', 0));
    expect(route.current).toEqual(at('a', 0));
    route.fromUrl(at('c', 0, null));
    expect(route.current).toEqual(at('c', 0, null));
  });

  it('stays ahead while the URL of its own move has not been rendered, and when it is', () => {
    const route = new PlayerRouteTracker(at('a', 0));
    route.moveTo(at('b', 1));
    route.fromUrl(at('a', 0)); // a render still carrying the old URL
    expect(route.current).toEqual(at('b', 1));
    route.fromUrl(at('b', 1));
    expect(route.current).toEqual(at('b', 1));
  });

  it('a move rendered late, after the player moved on again, does not send it back', () => {
    // a → b → a again before the router rendered b's URL (a slow screen: the transition came a page later)
    const route = new PlayerRouteTracker(at('a', 0));
    route.moveTo(at('b', 1));
    route.moveTo(at('a', 0));
    route.fromUrl(at('b', 1));
    expect(route.current).toEqual(at('a', 0));
    route.fromUrl(at('a', 0));
    expect(route.current).toEqual(at('a', 0));
    // nothing of its own is pending any more: a later URL change is the visitor's again
    route.fromUrl(at('b', 1));
    expect(route.current).toEqual(at('b', 1));
  });

  it('the router skipping an intermediate URL (only the last rendered) drops the moves before it', () => {
    const route = new PlayerRouteTracker(at('a', 0));
    route.moveTo(at('b', 1));
    route.moveTo(at('c', 2));
    route.fromUrl(at('c', 2));
    expect(route.current).toEqual(at('c', 2));
    route.fromUrl(at('b', 1)); // not pending any more: a visitor's navigation
    expect(route.current).toEqual(at('b', 1));
  });
});
