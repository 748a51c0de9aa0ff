import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * Password hashes on threads of their own, one per core, each running one hash after another.
 *
 * argon2id is bound by memory: more hashes at once than cores only makes each slower. @node-rs/argon2's async calls
 * run on libuv's pool, 4 threads by default, which on 2 cores ran 50 verifications in flight 25-30% slower than 2
 * threads (npm run bench -- login prints both). Capping the calls in JavaScript got back only two thirds of that: a
 * thread then idled until the event loop handed it the next hash. Here each thread already holds its next hash when
 * one ends, and libuv's pool stays free for DNS and files.
 */
export interface HashWorkers {
  hash(password: string, options: object): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** hashes handed to a thread and not yet answered (at most two per thread) */
  readonly running: number;
  /** hashes waiting in line */
  readonly waiting: number;
  /** Refuses new hashes, lets those already asked for finish, then ends the threads. */
  close(): Promise<void>;
}

/** The hash could not run (its thread died, or hashing is closed): not an answer about the password. */
export class HashingUnavailable extends Error {}

type Job = { id: number; op: 'hash' | 'verify'; password: string; hash?: string; options?: object };
type Answer = { id: number; ok: true; value: string | boolean } | { id: number; ok: false; message: string };
interface Pending {
  job: Job;
  resolve(value: string | boolean): void;
  reject(err: Error): void;
}

/** One hash running and one ready behind it on each thread: no gap between them, and the rest stay in order here. */
const PER_THREAD = 2;

export function createHashWorkers(size = availableParallelism()): HashWorkers {
  const script = new URL('./hash-worker.mjs', import.meta.url);
  const threads: Array<{ worker: Worker; jobs: Map<number, Pending> }> = [];
  const queue: Pending[] = [];
  let nextId = 0;
  let closed = false;
  let drained: (() => void) | undefined;

  function start() {
    // Plain JavaScript: none of the process's flags (a TypeScript loader, --input-type) is needed or wanted there.
    // Named, so that the hashes' CPU shows apart in top -H and /proc/<pid>/task/*/comm (the login benchmark reads it).
    const worker = new Worker(script, { execArgv: [], name: 'argon2' });
    const thread = { worker, jobs: new Map<number, Pending>() };
    worker.on('message', (answer: Answer) => {
      const pending = thread.jobs.get(answer.id);
      if (!pending) return;
      thread.jobs.delete(answer.id);
      if (answer.ok) pending.resolve(answer.value);
      else pending.reject(new Error(answer.message));
      pump();
      // A thread with nothing to do does not keep the process alive (a command-line tool that hashed once exits).
      if (thread.jobs.size === 0) worker.unref();
    });
    // A thread that dies (out of memory, a crash in the native hash) fails what it held; the next call starts another.
    const lost = (err: HashingUnavailable) => {
      const at = threads.indexOf(thread);
      if (at >= 0) threads.splice(at, 1);
      for (const pending of thread.jobs.values()) pending.reject(err);
      thread.jobs.clear();
      pump();
    };
    worker.on('error', (err) => lost(new HashingUnavailable(`password hashing thread failed: ${err.message}`)));
    worker.on('exit', (code) => lost(new HashingUnavailable(`password hashing thread exited (${code})`)));
    worker.unref(); // until it is given a hash
    threads.push(thread);
  }

  function pump() {
    if (queue.length === 0 && threads.every((t) => t.jobs.size === 0)) drained?.();
    while (queue.length > 0 && threads.length < size) start();
    for (const thread of threads) {
      while (thread.jobs.size < PER_THREAD) {
        const pending = queue.shift();
        if (!pending) return;
        thread.jobs.set(pending.job.id, pending);
        thread.worker.ref();
        thread.worker.postMessage(pending.job);
      }
    }
  }

  function submit(job: Omit<Job, 'id'>): Promise<string | boolean> {
    if (closed) return Promise.reject(new HashingUnavailable('password hashing is closed'));
    return new Promise((resolve, reject) => {
      queue.push({ job: { ...job, id: nextId++ }, resolve, reject });
      pump();
    });
  }

  return {
    async hash(password, options) {
      return String(await submit({ op: 'hash', password, options }));
    },
    async verify(hash, password) {
      return (await submit({ op: 'verify', password, hash })) === true;
    },
    get running() {
      return threads.reduce((n, t) => n + t.jobs.size, 0);
    },
    get waiting() {
      return queue.length;
    },
    async close() {
      closed = true;
      await new Promise<void>((resolve) => {
        drained = resolve;
        pump();
      });
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}
