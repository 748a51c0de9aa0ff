// The decisions' cache (src/media-caches.ts): an answer asked before a forget is remembered only when that forget
// was about someone else.
import { describe, expect, it } from 'vitest';
import { type AccessEntry, AccessCache } from '../src/media-caches';

const entry = (subject: string, fileId?: string): AccessEntry => ({ access: 'owner', subject, fileId });

describe('forgotSince', () => {
  it("is false with no forget since, false for a forget about another member, true for one about the entry's", () => {
    const cache = new AccessCache(10);
    const asked = cache.generation;
    expect(cache.forgotSince(asked, entry('alice', 'f1'))).toBe(false);
    cache.forget((e) => e.subject === 'bob');
    expect(cache.forgotSince(asked, entry('alice', 'f1'))).toBe(false);
    cache.forget((e) => e.fileId === 'f1');
    expect(cache.forgotSince(asked, entry('alice', 'f1'))).toBe(true);
    expect(cache.forgotSince(asked, entry('alice', 'f2'))).toBe(false);
  });

  it('is true when more forgets came than it keeps, whoever they were about', () => {
    const cache = new AccessCache(10);
    const asked = cache.generation;
    for (let i = 0; i < 300; i++) cache.forget((e) => e.subject === `other-${i}`);
    expect(cache.forgotSince(asked, entry('alice'))).toBe(true);
    // asked after most of them: the kept ones tell
    const later = cache.generation - 10;
    expect(cache.forgotSince(later, entry('alice'))).toBe(false);
  });
});
