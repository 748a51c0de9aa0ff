import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingClient } from '../src/data/billing';
import { runJobsOnce } from '../src/use-cases/run-jobs';
import { destroyMarketplace, type TestService, startMarketplace } from './helpers';

const billing: BillingClient = {
  transfer: async () => {
    throw new Error('not used');
  },
  lookup: async () => {
    throw new Error('not used');
  },
};

let a: TestService;
let b: TestService;
beforeAll(async () => {
  a = await startMarketplace({ billing, env: { JOBS_INTERVAL_MS: '60000' } });
  b = await startMarketplace({ billing, share: a });
});
afterAll(async () => {
  await b.close();
  await destroyMarketplace(a);
});

describe('the periodic jobs', () => {
  it('run on one instance per time slot, however many ask at once', async () => {
    const runs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => runJobsOnce((i % 2 ? a : b).server.context, { force: false })),
    );
    expect(runs.filter((r) => r.ran)).toHaveLength(1);
  });
});
