// Takeovers against the real service: on all screens or chosen groups, a message or a file, for a set time
// or until ended; in the manifests with their end (so an offline display ends them by itself); overlapping ones
// refused; the log of starts and ends; templates; plays during a file takeover counted as takeover plays.
import { randomUUID } from 'node:crypto';
import { PLAY_MAX_AGE_DAYS, TAKEOVER_BODY_MAX } from '@pagecast/contracts';
import type { TakeoverDoc } from '../src/data';
import { afterEach, describe, expect, it } from 'vitest';
import { fleetEvents, manifest, ok, refused, streamSeq } from './fleet-helpers';
import { announcer, eventsHandled, member, pairDisplay, postPlays, useService } from './helpers';

const svc = useService();
afterEach(() => {
  svc.clock.offsetMs = 0;
});

const quake = { kind: 'message', title: '地震発生', body: '係員の指示に従って避難してください' };

async function fleet() {
  const owner = member();
  const a = await pairDisplay(svc, owner, 'A');
  const b = await pairDisplay(svc, owner, 'B');
  const c = await pairDisplay(svc, owner, 'C');
  const east = await ok(svc, owner, 'POST', '/api/screens/groups', {
    name: 'East',
    screenIds: [a.screenId, b.screenId],
  });
  const west = await ok(svc, owner, 'POST', '/api/screens/groups', { name: 'West', screenIds: [c.screenId] });
  return { owner, a, b, c, east, west };
}

describe('takeovers', () => {
  it('takes over chosen groups ahead of every schedule, logs who/when/which/what, ends early, refuses overlaps', async () => {
    const { owner, a, b, c, east, west } = await fleet();
    const before = await streamSeq(svc);
    const t = await ok(svc, owner, 'POST', '/api/screens/takeovers', {
      target: { kind: 'groups', groupIds: [east.id] },
      content: quake,
      minutes: 30,
    });
    expect([...t.screenIds].sort()).toEqual([a.screenId, b.screenId].sort());
    expect(Date.parse(t.endsAt) - Date.parse(t.startedAt)).toBe(30 * 60_000);
    const m = await manifest(svc, a.device);
    expect(m.takeovers).toEqual([
      {
        id: t.id,
        show: { kind: 'message', title: '地震発生', body: quake.body },
        startsAt: t.startedAt,
        endsAt: t.endsAt,
      },
    ]);
    expect((await manifest(svc, c.device)).takeovers).toEqual([]);
    const [event] = await fleetEvents(svc, owner.userId, before, 1);
    expect(event?.data).toMatchObject({ kind: 'takeover-started', takeoverId: t.id });

    // overlapping: the same screens (through another group holding one of them) or all screens
    const both = await ok(svc, owner, 'POST', '/api/screens/groups', {
      name: 'Both',
      screenIds: [b.screenId, c.screenId],
    });
    const listed = await ok(svc, owner, 'GET', '/api/screens/takeovers');
    const overlap = await refused(
      svc,
      owner,
      'POST',
      '/api/screens/takeovers',
      { target: { kind: 'groups', groupIds: [both.id] }, content: quake, minutes: 5 },
      409,
      'TAKEOVER_OVERLAP',
    );
    expect(overlap.details).toEqual({ takeoverId: t.id });
    await refused(
      svc,
      owner,
      'POST',
      '/api/screens/takeovers',
      { target: { kind: 'all' }, content: quake, minutes: null },
      409,
      'TAKEOVER_OVERLAP',
    );
    expect(await ok(svc, owner, 'GET', '/api/screens/takeovers')).toEqual(listed);
    // other screens are free
    const westTakeover = await ok(svc, owner, 'POST', '/api/screens/takeovers', {
      target: { kind: 'groups', groupIds: [west.id] },
      content: { kind: 'message', title: 'Fermé', body: '' },
      minutes: null,
    });
    expect(westTakeover.endsAt).toBeNull();

    const ended = await ok(svc, owner, 'DELETE', `/api/screens/takeovers/${t.id}`);
    expect(ended.endedAt).not.toBeNull();
    expect((await manifest(svc, a.device)).takeovers).toEqual([]);
    await refused(svc, owner, 'DELETE', `/api/screens/takeovers/${t.id}`, undefined, 404, 'TAKEOVER_NOT_FOUND');
    const log = await ok(svc, owner, 'GET', '/api/screens/takeovers/log');
    expect(log.map((e: { takeoverId: string; action: string; by: string }) => [e.takeoverId, e.action, e.by])).toEqual([
      [t.id, 'end', owner.userId],
      [westTakeover.id, 'start', owner.userId],
      [t.id, 'start', owner.userId],
    ]);
    expect(log[2]).toMatchObject({ content: quake });
    expect([...log[2].screenIds].sort()).toEqual([a.screenId, b.screenId].sort());
  });

  it('ends on time by itself: its end is in the manifest, and the log shows the end with nobody', async () => {
    const { owner, a } = await fleet();
    const t = await ok(svc, owner, 'POST', '/api/screens/takeovers', {
      target: { kind: 'all' },
      content: quake,
      minutes: 10,
    });
    expect((await manifest(svc, a.device)).takeovers[0].endsAt).toBe(t.endsAt);
    svc.clock.offsetMs = 10 * 60_000;
    expect((await manifest(svc, a.device)).takeovers).toEqual([]);
    expect(await ok(svc, owner, 'GET', '/api/screens/takeovers')).toEqual([]);
    const [last] = await ok(svc, owner, 'GET', '/api/screens/takeovers/log');
    expect(last).toMatchObject({ takeoverId: t.id, action: 'end', by: null, at: t.endsAt });
    // over: a new one may start on the same screens
    await ok(svc, owner, 'POST', '/api/screens/takeovers', { target: { kind: 'all' }, content: quake, minutes: 1 });
  });

  it('refuses another member’s group or file, an empty or too long message, changing nothing', async () => {
    const { owner, a } = await fleet();
    const stranger = member();
    const theirGroup = await ok(svc, stranger, 'POST', '/api/screens/groups', { name: 'Theirs' });
    const theirFile = await announcer(svc).file(stranger.userId, 1, Date.now() - 60_000);
    await eventsHandled(svc);
    const start = (body: unknown, status: number, code: string) =>
      refused(svc, owner, 'POST', '/api/screens/takeovers', body, status, code);
    await start(
      { target: { kind: 'groups', groupIds: [theirGroup.id] }, content: quake, minutes: 5 },
      404,
      'SCREEN_GROUP_NOT_FOUND',
    );
    await start(
      { target: { kind: 'all' }, content: { kind: 'file', fileId: theirFile }, minutes: 5 },
      404,
      'FILE_NOT_FOUND',
    );
    const empty = await start(
      { target: { kind: 'all' }, content: { kind: 'message', title: ' ', body: 'x' }, minutes: 5 },
      400,
      'VALIDATION',
    );
    expect(empty.issues[0].key).toBe('validation.takeoverTitleRequired');
    const long = await start(
      {
        target: { kind: 'all' },
        content: { kind: 'message', title: 'x', body: 'x'.repeat(TAKEOVER_BODY_MAX + 1) },
        minutes: 5,
      },
      400,
      'VALIDATION',
    );
    expect(long.issues[0].key).toBe('validation.takeoverBodyTooLong');
    await start({ target: { kind: 'all' }, templateId: randomUUID() }, 404, 'TAKEOVER_TEMPLATE_NOT_FOUND');
    await refused(
      svc,
      stranger,
      'DELETE',
      `/api/screens/takeovers/${randomUUID()}`,
      undefined,
      404,
      'TAKEOVER_NOT_FOUND',
    );
    expect(await ok(svc, owner, 'GET', '/api/screens/takeovers')).toEqual([]);
    expect(await ok(svc, owner, 'GET', '/api/screens/takeovers/log')).toEqual([]);
    expect((await manifest(svc, a.device)).takeovers).toEqual([]);
    // another member cannot end one of ours
    const t = await ok(svc, owner, 'POST', '/api/screens/takeovers', {
      target: { kind: 'all' },
      content: quake,
      minutes: 5,
    });
    await refused(svc, stranger, 'DELETE', `/api/screens/takeovers/${t.id}`, undefined, 404, 'TAKEOVER_NOT_FOUND');
    expect((await manifest(svc, a.device)).takeovers).toHaveLength(1);
  });

  it('templates: saved, changed, started in one call, deleted; another member’s is not found', async () => {
    const { owner, a } = await fleet();
    const stranger = member();
    const tpl = await ok(svc, owner, 'POST', '/api/screens/takeover-templates', {
      name: '避難訓練',
      content: quake,
      minutes: 15,
    });
    const changed = await ok(svc, owner, 'PUT', `/api/screens/takeover-templates/${tpl.id}`, {
      name: '避難訓練',
      content: { ...quake, title: '避難訓練中' },
      minutes: 20,
    });
    expect(await ok(svc, owner, 'GET', '/api/screens/takeover-templates')).toEqual([changed]);
    await refused(
      svc,
      stranger,
      'POST',
      '/api/screens/takeovers',
      { target: { kind: 'all' }, templateId: tpl.id },
      404,
      'TAKEOVER_TEMPLATE_NOT_FOUND',
    );
    await refused(
      svc,
      stranger,
      'DELETE',
      `/api/screens/takeover-templates/${tpl.id}`,
      undefined,
      404,
      'TAKEOVER_TEMPLATE_NOT_FOUND',
    );
    const t = await ok(svc, owner, 'POST', '/api/screens/takeovers', { target: { kind: 'all' }, templateId: tpl.id });
    expect(t).toMatchObject({ templateId: tpl.id, content: { title: '避難訓練中' } });
    expect(Date.parse(t.endsAt) - Date.parse(t.startedAt)).toBe(20 * 60_000);
    expect((await manifest(svc, a.device)).takeovers[0].show.title).toBe('避難訓練中');
    await ok(svc, owner, 'DELETE', `/api/screens/takeover-templates/${tpl.id}`);
    expect(await ok(svc, owner, 'GET', '/api/screens/takeover-templates')).toEqual([]);
  });

  it('plays of a takeover’s file count, as takeover plays, from its start to its end only; a bought file needs a live licence', async () => {
    const owner = member();
    const seller = member();
    const ann = announcer(svc);
    const fileId = await ann.file(owner.userId, 2, Date.now() - 60_000);
    const bought = await ann.file(seller.userId, 1, Date.now() - 60_000);
    const expired = await ann.file(seller.userId, 1, Date.now() - 60_000);
    await ann.purchase(owner.userId, bought, seller.userId, Date.now() - 60_000, Date.now() + 86_400_000);
    await ann.purchase(owner.userId, expired, seller.userId, Date.now() - 120_000, Date.now() - 60_000);
    await eventsHandled(svc);
    const d = await pairDisplay(svc, owner);
    await refused(
      svc,
      owner,
      'POST',
      '/api/screens/takeovers',
      { target: { kind: 'all' }, content: { kind: 'file', fileId: expired }, minutes: 5 },
      404,
      'FILE_NOT_FOUND',
    );
    await ok(svc, owner, 'POST', '/api/screens/takeovers', {
      target: { kind: 'all' },
      content: { kind: 'file', fileId: bought },
      minutes: 1,
    });
    svc.clock.offsetMs = 61_000;
    const t = await ok(svc, owner, 'POST', '/api/screens/takeovers', {
      target: { kind: 'all' },
      content: { kind: 'file', fileId },
      minutes: 1,
    });
    const startedAt = Date.parse(t.startedAt);
    const play = (at: number) => ({
      id: randomUUID(),
      fileId,
      page: 1,
      startedAt: new Date(at).toISOString(),
      seconds: 5,
    });
    const during = play(startedAt + 1_000);
    // reported once it has ended: a record may not end ahead of the server's time by more than the display's clock is
    svc.clock.offsetMs = 61_000 + 7_000;
    const res = (await postPlays(svc, d.device, { plays: [during] })).body;
    expect(res).toMatchObject({ accepted: 1, refused: 0 });
    const stored = await svc.server.context.conn.collection('plays').findOne({ _id: during.id as never });
    expect(stored?.takeoverId).toBe(t.id);
    // before it started it was never given (the screen plays nothing of its own)
    const early = (
      await postPlays(svc, d.device, {
        plays: [play(startedAt - 61_000)],
      })
    ).body;
    expect(early).toMatchObject({ accepted: 0, refusedByReason: { 'not-assigned': 1 } });
    // after its end (and the minute an end takes to reach a display) neither
    svc.clock.offsetMs = 61_000 + 200_000;
    const late = (
      await postPlays(svc, d.device, {
        plays: [play(startedAt + 125_000)],
      })
    ).body;
    expect(late).toMatchObject({ accepted: 0, refusedByReason: { 'not-assigned': 1 } });
  });
});

describe('the takeovers proof of play reads', () => {
  /** A file takeover of `ownerId` on one screen, running since `startedAt`, changed by `over`. */
  const takeoverDoc = (ownerId: string, startedAt: Date, over: Partial<TakeoverDoc> = {}): TakeoverDoc => ({
    _id: `t-${randomUUID()}`,
    ownerId,
    target: { kind: 'all' },
    content: { kind: 'file', fileId: randomUUID() },
    startedAt,
    startedBy: ownerId,
    endsAt: null,
    endedAt: null,
    endedBy: null,
    screenIds: ['s1'],
    templateId: null,
    ...over,
  });

  it('reads only the file takeovers that may cover a record still taken, and callers at once share one read', async () => {
    const { takeovers } = svc.server.context.data.fleet;
    const ownerId = `owner-${randomUUID()}`;
    const now = svc.server.context.clock.ms();
    const day = 86_400_000;
    const doc = (id: string, over: Partial<TakeoverDoc>): TakeoverDoc =>
      takeoverDoc(ownerId, new Date(now - 60 * day), { _id: `${id}-${randomUUID()}`, ...over });
    const past = (days: number) => new Date(now - days * day);
    const kept = [
      doc('running', {}),
      doc('ended-lately', { endedAt: past(PLAY_MAX_AGE_DAYS - 1), endedBy: ownerId }),
      doc('ends-later', { endsAt: new Date(now + day) }),
      doc('ended-on-time-lately', { endsAt: past(2) }),
    ];
    const dropped = [
      doc('ended-long-ago', { endedAt: past(PLAY_MAX_AGE_DAYS + 2), endedBy: ownerId }),
      doc('ended-on-time-long-ago', { endsAt: past(PLAY_MAX_AGE_DAYS + 2) }),
      doc('message', { content: { kind: 'message', title: 't', body: 'b' } }),
    ];
    for (const d of [...kept, ...dropped]) await takeovers.insert(d);

    const reads = await Promise.all(Array.from({ length: 5 }, () => takeovers.recentOfOwner(ownerId, now, false)));
    expect(reads[0]?.map((d) => d._id).sort()).toEqual(kept.map((d) => d._id).sort());
    // one read for all five (the same documents, not five copies of them)
    for (const r of reads) expect(r).toBe(reads[0]);

    // a start on this instance is seen at once, and a fresh read is its own
    const started = doc('started-now', { startedAt: new Date(now) });
    await takeovers.insert(started);
    const after = await takeovers.recentOfOwner(ownerId, now, false);
    expect(after.map((d) => d._id)).toContain(started._id);
    expect(await takeovers.recentOfOwner(ownerId, now, true)).not.toBe(after);
  });

  it('answers every caller when fresh reads and a start come one after another while shared reads run', async () => {
    const { takeovers } = svc.server.context.data.fleet;
    const ownerId = `owner-${randomUUID()}`;
    const now = svc.server.context.clock.ms();
    const doc = () => takeoverDoc(ownerId, new Date(now));
    await takeovers.insert(doc());
    // many judge batches at once, some refusing and reading afresh, each a turn after the last (a fresh read that
    // dropped the shared entry aborted the read the others waited on: four in a row failed the first caller)
    const calls: Promise<TakeoverDoc[]>[] = [];
    for (let i = 0; i < 12; i++) {
      calls.push(takeovers.recentOfOwner(ownerId, now, i % 2 === 1));
      await new Promise((r) => setImmediate(r));
    }
    const started = doc();
    const [, ...rest] = await Promise.all([takeovers.insert(started), ...calls]);
    for (const docs of rest) expect(docs.length).toBeGreaterThanOrEqual(1);
    // the start on this instance is seen by the next shared read
    expect((await takeovers.recentOfOwner(ownerId, now, false)).map((d) => d._id)).toContain(started._id);
  });
});
