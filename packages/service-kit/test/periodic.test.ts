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

describe('runPeriodically with runAtStart', () => {
  it('runs the job at once, then on every tick, and stop waits for the first run', async () => {
    vi.useFakeTimers();
    let release: () => void = () => {};
    const job = vi.fn(
      () =>
        new Promise<void>((r) => {
          release = r;
        }),
    );
    const p = runPeriodically(100, job, { logger, name: 'test job', runAtStart: true });
    expect(job).toHaveBeenCalledTimes(1); // before any time has passed
    await vi.advanceTimersByTimeAsync(250); // the first run still holds: its ticks are skipped
    expect(job).toHaveBeenCalledTimes(1);
    release();
    await vi.advanceTimersByTimeAsync(100);
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
