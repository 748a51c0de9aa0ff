import { currentUserQueryKey, createQueryClient } from '@pagecast/ui';
import { afterEach, describe, expect, it } from 'vitest';
import { seedSignedOut } from '../src/app/session-hint';

afterEach(() => {
  for (const m of document.head.querySelectorAll('meta[name="pc-session"]')) m.remove();
});

const mark = (content: string) => {
  const meta = document.createElement('meta');
  meta.name = 'pc-session';
  meta.content = content;
  document.head.append(meta);
};

describe('the signed-out mark of the shell page', () => {
  it('makes the current user known (nobody) without a request', () => {
    mark('none');
    const qc = createQueryClient();
    expect(seedSignedOut(qc)).toBe(true);
    const state = qc.getQueryState(currentUserQueryKey);
    expect(state?.status).toBe('success');
    expect(state?.data).toBeNull();
  });

  it('leaves the question to the server when the page has no mark or another value', () => {
    const qc = createQueryClient();
    expect(seedSignedOut(qc)).toBe(false);
    mark('signed-in');
    expect(seedSignedOut(qc)).toBe(false);
    expect(qc.getQueryState(currentUserQueryKey)).toBeUndefined();
  });
});
