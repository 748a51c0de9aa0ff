import { describe, expect, it } from 'vitest';
import { recentChanges, SINCE_SLACK_MS } from '../src/recent-changes';

describe('the ids live events concerned lately', () => {
  it('tells a stream opening on a changed id to resync, until the window has passed, then forgets the id', () => {
    const changes = recentChanges(1500);
    const t0 = 1_000_000;
    changes.note(['playlist:a'], t0);
    expect(changes.changedRecently(['playlist:a', 'playlist:b'], t0 + 1000, undefined)).toBe(true);
    expect(changes.changedRecently(['playlist:b'], t0 + 1000, undefined)).toBe(false);
    expect(changes.changedRecently(['playlist:a'], t0 + 1501, undefined)).toBe(false);
    // a later note prunes what is past the window: memory stays bounded by the events of one window
    changes.note(['playlist:c'], t0 + 1600);
    expect(changes.changedRecently(['playlist:a'], t0 + 1600, undefined)).toBe(false);
    expect(changes.changedRecently(['playlist:c'], t0 + 1600, undefined)).toBe(true);
  });

  it('does not tell a client whose reads were made well after the change', () => {
    const changes = recentChanges(60_000);
    const t0 = 1_000_000;
    changes.note(['file:x'], t0);
    expect(changes.changedRecently(['file:x'], t0 + 10_000, t0 + SINCE_SLACK_MS + 1)).toBe(false);
    expect(changes.changedRecently(['file:x'], t0 + 10_000, t0 + SINCE_SLACK_MS - 1)).toBe(true);
  });

  it('counts only the ids of the window', () => {
    const changes = recentChanges(1500);
    const now = Date.now();
    changes.note(['old'], now - 2000);
    changes.note(['new'], now);
    expect(changes.size).toBe(1);
  });
});
