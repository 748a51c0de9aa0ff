/**
 * Names the step a long browser test is on, so that a hang fails with where it stuck and how long the steps before
 * took. Some page calls have no time-out of their own (page.evaluate waits as long as the page does), and a test that
 * only hits its own time-out says nothing about which of its hundred steps never ended.
 */
export interface Steps {
  /** The step about to run (the one before is done). */
  step(label: string): void;
  /** Runs the work; fails `limitMs` after the start with the step it is on, unless the work ended first. */
  within<T>(limitMs: number, work: () => Promise<T>): Promise<T>;
}

export function steps(): Steps {
  let current = 'the start';
  let since = Date.now();
  const took: Array<{ label: string; ms: number }> = [];
  return {
    step(label) {
      took.push({ label: current, ms: Date.now() - since });
      current = label;
      since = Date.now();
    },
    async within(limitMs, work) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const slowest = [...took]
            .sort((a, b) => b.ms - a.ms)
            .slice(0, 5)
            .map((s) => `${s.label} ${s.ms} ms`);
          reject(
            new Error(
              `stuck for ${Date.now() - since} ms at: ${current} (after ${took.length} steps; slowest: ${slowest.join(', ')})`,
            ),
          );
        }, limitMs);
      });
      try {
        return await Promise.race([work(), deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
