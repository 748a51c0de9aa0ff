// A fleet's boot (or the storm after a power cut): every display's first play batch since the process started
// makes the judge read the screen's ledger head and versions, its offline gaps and its assignment history. The
// screens judged together read each of these in one query per turn, not one (or two) per screen. And every batch is
// judged on its screen's record as the device view holds it, not on one read from the database at each pass.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { announcer, displayGiven, member, sendPlays, useService } from './helpers';

const svc = useService();
const facts = announcer(svc);
afterEach(() => {
  vi.restoreAllMocks();
});

/** The queries sent to these collections while `work` runs (find and findOne, however the repository asks). */
async function queriesOf(names: string[], work: () => Promise<unknown>): Promise<Record<string, number>> {
  const { conn } = svc.server.context;
  const counts: Record<string, number> = {};
  for (const name of names) {
    counts[name] = 0;
    const col = conn.collection(name);
    for (const method of ['find', 'findOne'] as const) {
      const real = col[method].bind(col);
      vi.spyOn(col, method).mockImplementation(((...args: unknown[]) => {
        counts[name] = (counts[name] ?? 0) + 1;
        return (real as (...a: unknown[]) => unknown)(...args);
      }) as never);
    }
  }
  await work();
  return counts;
}

describe('the first batches of many screens at once', () => {
  it('read their ledgers, gaps and assignment entries in a few queries, not per screen', async () => {
    const { data } = svc.server.context;
    const screens = Array.from({ length: 200 }, () => randomUUID());
    const now = svc.server.context.clock.ms();
    let found: unknown[] = [];
    const counts = await queriesOf(
      ['screen_play_ledger_heads', 'screen_play_ledgers', 'screen_gaps', 'screen_assignments'],
      async () => {
        found = await Promise.all(
          screens.flatMap((id) => [
            data.ledger.get(id, true),
            data.gaps.of(id, now, true),
            data.history.since(id, 3, now - 60_000),
          ]),
        );
      },
    );
    // what a screen that never played answers: an empty ledger, no gaps, no entries
    expect(found).toHaveLength(600);
    expect(found[0]).toMatchObject({ rev: 0, played: [], claims: [] });
    expect(found[1]).toEqual([]);
    expect(found[2]).toEqual([]);
    for (const [name, n] of Object.entries(counts)) {
      expect(n, name).toBeGreaterThan(0);
      // one query per turn for up to 500 ids (the ledger probes 32 versions per screen: 6,400 ids); 200 before
      expect(n, name).toBeLessThanOrEqual(20);
    }
  });
});

describe("the judge's screens", () => {
  it("come from the device view: judging a display's batches reads no screen document", async () => {
    const owner = member();
    const file = await facts.file(owner.userId, 2, svc.server.context.clock.ms() - 3_600_000);
    const device = await displayGiven(svc, owner, file);
    // two minutes after its pairing: the records below start after it and have ended
    svc.clock.offsetMs += 120_000;
    const t0 = svc.server.context.clock.ms();
    const record = (page: number, start: number) => ({
      id: randomUUID(),
      fileId: file,
      page,
      startedAt: new Date(start).toISOString(),
      seconds: 10,
    });
    let verdicts: Awaited<ReturnType<typeof sendPlays>>[] = [];
    const counts = await queriesOf(['screens'], async () => {
      verdicts = [
        await sendPlays(svc, device, [record(1, t0 - 40_000), record(2, t0 - 30_000)]),
        await sendPlays(svc, device, [record(1, t0 - 20_000)]),
      ];
    });
    svc.clock.offsetMs -= 120_000;
    // judged as before: every record counted
    expect(verdicts.map((v) => [v.accepted, v.refused])).toEqual([
      [2, 0],
      [1, 0],
    ]);
    // a pass read its group's screens from the database before (one query each)
    expect(counts.screens).toBe(0);
  });
});
