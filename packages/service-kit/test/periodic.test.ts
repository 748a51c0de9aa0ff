import { afterEach, describe, expect, it, vi } from 'vitest';
import { runPeriodically } from '../src/periodic';

const logger = { warn: vi.fn() } as unknown as Parameters<typeof runPeriodically>[2]['logger'];

afterEach(() => {
  vi.useRealTimers();
});

describe('runPeriodically', () => {
  it('never runs two at once, retries after a failure, and stop waits for the run in progress', async () => {
    vi.useFakeTimers();
    let runs = 0;
    let release: () => void = () => {};
    const job = vi.fn(async () => {
      runs++;
      if (runs === 1) throw new Error('first fails');
      await new Promise<void>((r) => {
        release = r;
      });
    });
    const p = runPeriodically(100, job, { logger, name: 'test job' });
    await vi.advanceTimersByTimeAsync(100);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(100); // second run starts and hangs
    await vi.advanceTimersByTimeAsync(300); // ticks while it runs are skipped
    expect(job).toHaveBeenCalledTimes(2);
    let stopped = false;
    const stopping = p.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    release();
    await stopping;
    await vi.advanceTimersByTimeAsync(500);
    expect(job).toHaveBeenCalledTimes(2);
  });
});
