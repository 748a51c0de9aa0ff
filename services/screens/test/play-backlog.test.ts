// The play intake's backlog on /metrics (screens_play_intake_backlog): records taken and not yet judged and written.
// Any instance reports it (it is read from the stream and the judge's checkpoint, both shared), so an operator's
// scraper and a browser test can tell when every accepted record has been judged.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, member, pairDisplay, playsJudged, startReplica, startService, type TestService } from './helpers';

let svc: TestService;
beforeAll(async () => {
  // no judge of its own: what it takes waits in the stream
  svc = await startService({ PLAY_JUDGE: '0' });
});
afterAll(async () => {
  await svc?.close();
});

const backlog = async (via: TestService) => {
  const text = await (await fetch(`${via.server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('screens_play_intake_backlog'));
  return Number(line?.split(' ').at(-1));
};

describe('the play intake backlog', () => {
  it('counts the records taken and not judged, and falls to 0 once a judge (on another instance) has them', async () => {
    const owner = member();
    const { device } = await pairDisplay(svc, owner);
    const startedAt = new Date(Date.now() - 60_000).toISOString();
    const plays = Array.from({ length: 3 }, () => ({
      id: randomUUID(),
      fileId: randomUUID(),
      page: 1,
      startedAt,
      seconds: 5,
    }));
    const res = await call(svc, { device }, 'POST', '/api/screens/device/plays', { plays });
    expect(res.status).toBe(200);
    expect(await backlog(svc)).toBe(3);
    const judge = await startReplica(svc, { PLAY_JUDGE: '1' });
    try {
      await playsJudged(svc);
      expect(await backlog(svc)).toBe(0);
      expect(await backlog(judge)).toBe(0);
    } finally {
      await judge.close();
    }
  });
});
