import { describe, expect, it } from 'vitest';
import { onceUntilFailure } from './once';

describe('onceUntilFailure', () => {
  it('runs once for every caller, and again after a failure', async () => {
    let calls = 0;
    let fail = true;
    const ensure = onceUntilFailure(async () => {
      calls++;
      if (fail) throw new Error('down');
      return calls;
    });
    await expect(ensure()).rejects.toThrow('down');
    fail = false;
    expect(await Promise.all([ensure(), ensure()])).toEqual([2, 2]);
    expect(await ensure()).toBe(2);
    expect(calls).toBe(2);
  });
});
