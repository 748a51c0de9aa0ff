// One password-hashing thread (see hash-workers.ts): runs argon2id calls one after another, each to the end, and
// answers each with its id. Plain JavaScript: a worker thread gets no TypeScript loader in tests.
import { parentPort } from 'node:worker_threads';
import { hashSync, verifySync } from '@node-rs/argon2';

parentPort.on('message', (job) => {
  try {
    const value = job.op === 'verify' ? verifySync(job.hash, job.password) : hashSync(job.password, job.options);
    parentPort.postMessage({ id: job.id, ok: true, value });
  } catch (err) {
    parentPort.postMessage({ id: job.id, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
