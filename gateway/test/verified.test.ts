// The memory of checked token signatures (gateway/src/verified.ts): how long an entry lasts, and which one goes
// when it is full. A clock stands in for the time, so no test waits.
import { describe, expect, it } from 'vitest';
import { VerifiedTokens } from '../src/verified';

const clockAt = (ms: number) => ({
  ms,
  now() {
    return this.ms;
  },
});

describe('VerifiedTokens', () => {
  it('keeps an entry for holdMs at most, and never past the token expiry', () => {
    const clock = clockAt(1_700_000_000_000);
    const tokens = new VerifiedTokens<{ id: string }>(10, 60_000, clock);
    tokens.set('long-lived', { id: 'a' }, clock.ms / 1000 + 3600);
    tokens.set('expires-soon', { id: 'b' }, clock.ms / 1000 + 5);
    tokens.set('no-exp', { id: 'c' }, undefined);
    clock.ms += 4_000;
    expect(tokens.get('expires-soon')).toEqual({ id: 'b' });
    clock.ms += 2_000; // past its exp
    expect(tokens.get('expires-soon')).toBeUndefined();
    expect(tokens.get('long-lived')).toEqual({ id: 'a' });
    clock.ms += 55_000; // past holdMs
    expect(tokens.get('long-lived')).toBeUndefined();
    expect(tokens.get('no-exp')).toBeUndefined();
  });

  it('does not keep a token that has already expired', () => {
    const clock = clockAt(1_700_000_000_000);
    const tokens = new VerifiedTokens<{ id: string }>(10, 60_000, clock);
    tokens.set('expired', { id: 'x' }, clock.ms / 1000 - 1);
    expect(tokens.get('expired')).toBeUndefined();
    expect(tokens.size).toBe(0);
  });

  it('when full, drops the entry used longest ago, not one a request has just read', () => {
    const clock = clockAt(1_700_000_000_000);
    const tokens = new VerifiedTokens<{ id: string }>(2, 60_000, clock);
    tokens.set('first', { id: '1' }, undefined);
    tokens.set('second', { id: '2' }, undefined);
    expect(tokens.get('first')).toEqual({ id: '1' }); // read again: now the most recently used
    tokens.set('third', { id: '3' }, undefined);
    expect(tokens.size).toBe(2);
    expect(tokens.get('first')).toEqual({ id: '1' });
    expect(tokens.get('second')).toBeUndefined();
    expect(tokens.get('third')).toEqual({ id: '3' });
  });
});
