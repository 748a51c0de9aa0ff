import { PLAY_BATCH_MAX, type PlayRecord } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { createPlayLog, PLAY_LOG_MAX } from '../src/features/display/model/play-log';

const memory = () => {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
};
const record = (n: number): PlayRecord => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  fileId: 'f',
  page: 0,
  startedAt: new Date(1_700_000_000_000 + n * 1000).toISOString(),
  seconds: 1,
});

describe('the display play log', () => {
  it('keeps records across instances (a reload) until the server answered for them', () => {
    const storage = memory();
    const log = createPlayLog(storage);
    for (let i = 0; i < 3; i++) log.add(record(i));
    const again = createPlayLog(storage);
    expect(again.batch().map((r) => r.id)).toEqual([record(0).id, record(1).id, record(2).id]);
    again.remove([record(0).id, record(2).id]);
    expect(createPlayLog(storage).batch()).toEqual([record(1)]);
  });

  it('sends at most one batch at a time, oldest first, and drops the oldest past its bound', () => {
    const storage = memory();
    const log = createPlayLog(storage);
    const many = Array.from({ length: PLAY_LOG_MAX + 10 }, (_, i) => record(i));
    storage.setItem('pagecast.screen.plays', JSON.stringify(many.slice(0, PLAY_LOG_MAX + 9)));
    log.add(many[PLAY_LOG_MAX + 9] as PlayRecord);
    expect(log.size).toBe(PLAY_LOG_MAX);
    const batch = log.batch();
    expect(batch).toHaveLength(PLAY_BATCH_MAX);
    expect(batch[0]?.id).toBe(record(10).id);
  });

  it('survives a corrupt store', () => {
    const storage = memory();
    storage.setItem('pagecast.screen.plays', '{not json');
    const log = createPlayLog(storage);
    expect(log.batch()).toEqual([]);
    log.add(record(1));
    expect(log.size).toBe(1);
  });
});
