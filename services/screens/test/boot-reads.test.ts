// A fleet's boot (or the storm after a power cut): every display's first play batch since the process started
// makes the judge read the screen's ledger head and versions, its offline gaps and its assignment history. The
// screens judged together read each of these in one query per turn, not one (or two) per screen.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useService } from './helpers';

const svc = useService();
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
