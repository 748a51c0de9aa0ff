// The fleet view (GET /api/screens/health): counts per state over the member's screens matching the group
// and name filters, and one page of them (filtered by state too), by name then id, with an opaque cursor. The owner's
// screens come from the device view's owner index (data/device-view.ts: in memory on every instance, current with
// every change made here and with the screens' events of every other instance, a pairing included; no query, no
// age), their groups and fleet document are read once, statuses come from memory: nothing per screen from the
// database or NATS.
import type { FleetHealth, FleetHealthCounts, FleetHealthQuery, ScreenHealth } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { healthOfScreens } from './screen-health';

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });
const byNameThenId = (a: { name: string; id: string }, b: { name: string; id: string }) =>
  collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const fold = (text: string) => text.normalize('NFKC').toLowerCase();

function encodeCursor(last: ScreenHealth): string {
  return Buffer.from(JSON.stringify([last.name, last.screenId]), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { name: string; id: string } {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { name: value[0], id: value[1] };
    }
  } catch {
    // refused below
  }
  throw new AppError('VALIDATION', {
    issues: [{ path: 'cursor', message: 'not a cursor of this list', key: 'validation.invalid' }],
  });
}

export async function fleetHealth(ctx: ServiceContext, ownerId: string, query: FleetHealthQuery): Promise<FleetHealth> {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const now = ctx.clock.ms();
  let screens = await ctx.data.screens.forHealth(ownerId, now);
  if (query.groupId) {
    const { groupId } = query;
    screens = screens.filter((s) => s.groupIds?.includes(groupId));
  }
  if (query.q) {
    const q = fold(query.q);
    screens = screens.filter((s) => fold(s.name).includes(q));
  }
  const views = await healthOfScreens(ctx, screens, now);
  const counts: FleetHealthCounts = {
    total: 0,
    online: 0,
    offline: 0,
    closed: 0,
    broken: 0,
    frozen: 0,
    wrong: 0,
    ok: 0,
  };
  for (const { health } of views) {
    counts.total++;
    counts[health.state]++;
    if (health.state !== 'offline') counts.online++;
  }
  const { state } = query;
  const wanted = views
    .map((v) => v.health)
    .filter((h) => (state === undefined ? true : state === 'online' ? h.state !== 'offline' : h.state === state))
    .filter((h) => after === null || byNameThenId({ name: h.name, id: h.screenId }, after) > 0)
    .sort((a, b) => byNameThenId({ name: a.name, id: a.screenId }, { name: b.name, id: b.screenId }));
  const items = wanted.slice(0, query.limit);
  const last = items.at(-1);
  return { counts, items, nextCursor: wanted.length > query.limit && last ? encodeCursor(last) : null };
}
