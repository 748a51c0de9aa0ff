// Every gateway test: a stand-in service that answered something its route's contract refuses (contract.ts) fails
// the test that made the call, with the drift named, even when the gateway hid it behind a 502 or a retry.
import { afterEach } from 'vitest';
import { takeDrifts } from './contract';

afterEach(() => {
  const drifts = takeDrifts();
  if (drifts.length > 0) throw new Error(drifts.join('\n'));
});
