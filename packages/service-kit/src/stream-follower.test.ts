import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { followStream } from './stream-follower';

describe('followStream', () => {
  it('runs again after a failure, waiting longer each time in a row, and says what it waits for', async () => {
    const lines: Array<{ msg: string; waitMs: number }> = [];
    const logger = pino({ level: 'debug' }, { write: (l: string) => lines.push(JSON.parse(l)) });
    let runs = 0;
    const follower = followStream(
      async (live) => {
        runs++;
        if (runs === 4) live(); // in place: the next failure waits the least again
        if (runs < 6) throw new Error('no stream yet');
        follower.stop();
      },
      { name: 'feed', waitingFor: 'the FILES stream', logger, minMs: 4, maxMs: 10, random: () => 1 },
    );
    await follower.done;
    expect(runs).toBe(6);
    expect(lines.map((l) => l.waitMs)).toEqual([4, 8, 10, 4, 8]);
    expect(lines[0]?.msg).toBe('feed: waiting for the FILES stream; trying again in 0.0 s');
  });

  it('draws each wait between half and all of its ceiling, and stops waiting when stopped', async () => {
    let runs = 0;
    const follower = followStream(
      async () => {
        runs++;
        throw new Error('down');
      },
      { name: 'feed', waitingFor: 'NATS', minMs: 60_000, random: () => 0 },
    );
    await new Promise((r) => setTimeout(r, 20));
    follower.stop(); // during a 30 s wait: the loop ends now
    await follower.done;
    expect(runs).toBe(1);
  });

  it('ends when no longer wanted', async () => {
    let wanted = true;
    let runs = 0;
    const follower = followStream(
      async () => {
        runs++;
        wanted = false;
      },
      { name: 'feed', waitingFor: 'NATS', active: () => wanted },
    );
    await follower.done;
    expect(runs).toBe(1);
  });
});
