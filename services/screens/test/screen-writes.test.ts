// A screen's record written by two of the owner's calls at once (two people of the workspace, or two tabs): a rename
// and an unpairing, against the real FerretDB, which runs each update as read-then-write of the whole document. Both
// must hold: an unpairing written over by the rename would bring the screen back.
import { describe, expect, it } from 'vitest';
import { call, member, pairDisplay, useService } from './helpers';

const svc = useService({ PAIR_ATTEMPT_RATE_MAX: '1000' });

describe("a screen's record under two of the owner's calls", () => {
  it('a rename beside an unpairing: unpaired every round, and renamed whenever the rename answered ok', async () => {
    const owner = member();
    const lost: string[] = [];
    for (let round = 0; round < 40; round++) {
      const { screenId } = await pairDisplay(svc, owner, `Display ${round}`);
      const name = `Renamed ${round}`;
      const [renamed, unpaired] = await Promise.all([
        call(svc, owner, 'PUT', `/api/screens/${screenId}`, { name }),
        call(svc, owner, 'DELETE', `/api/screens/${screenId}`),
      ]);
      expect(unpaired.status, JSON.stringify(unpaired.body)).toBe(200);
      const stored = await svc.server.context.data.screens.get(screenId);
      if (!stored?.revokedAt) lost.push(`round ${round}: the unpairing (rename ${renamed.status})`);
      if (renamed.status === 200 && stored?.name !== name) lost.push(`round ${round}: the rename`);
    }
    expect(lost).toEqual([]);
  }, 120_000);
});
