import type { Logger } from '@pagecast/service-kit';

/**
 * Work done after the answer was sent (mail delivery): the request's timing does not depend on it, which keeps
 * "does this account exist?" out of the response time. Failures are logged; close() waits for what is running.
 */
export interface Background {
  run(name: string, work: () => Promise<void>): void;
  /** Resolves when nothing is running (tests wait on it too). */
  idle(): Promise<void>;
}

export function createBackground(logger: Logger): Background {
  const running = new Set<Promise<void>>();
  return {
    run(name, work) {
      const p: Promise<void> = Promise.resolve()
        .then(work)
        .catch((err: unknown) => logger.error({ err, task: name }, 'background task failed'))
        .finally(() => running.delete(p));
      running.add(p);
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
