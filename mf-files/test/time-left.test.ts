import { describe, expect, it } from 'vitest';
import { createRateMeter, timeLeftWords } from '../src/features/library/model/time-left';

describe('time left of an upload', () => {
  it('is unknown while warming up, then the bytes left at the measured rate', () => {
    const meter = createRateMeter();
    const total = 100_000_000;
    expect(meter.sample(0, total, 0)).toBeNull();
    // 1 MB a second
    expect(meter.sample(1_000_000, total, 1000)).toBeNull();
    expect(meter.sample(2_000_000, total, 2000)).toBe(98);
    expect(meter.sample(3_000_000, total, 3000)).toBe(97);
  });

  it('smooths a slow chunk rather than jumping, and starts anew after a dropped connection', () => {
    const meter = createRateMeter();
    const total = 100_000_000;
    meter.sample(0, total, 0);
    meter.sample(1_000_000, total, 1000);
    meter.sample(2_000_000, total, 2000);
    // one second at a tenth of the rate: the estimate grows, far less than tenfold
    const slow = meter.sample(2_100_000, total, 3000) as number;
    expect(slow).toBeGreaterThan(98);
    expect(slow).toBeLessThan(200);
    meter.restart();
    expect(meter.sample(2_100_000, total, 10_000)).toBeNull();
  });

  it('is worded in seconds, minutes or hours', () => {
    expect(timeLeftWords(0)).toEqual({ key: 'timeLeftSeconds', count: 1 });
    expect(timeLeftWords(59)).toEqual({ key: 'timeLeftSeconds', count: 59 });
    expect(timeLeftWords(90)).toEqual({ key: 'timeLeftMinutes', count: 2 });
    expect(timeLeftWords(7200)).toEqual({ key: 'timeLeftHours', count: 2 });
  });
});
