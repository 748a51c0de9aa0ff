// A member is found by e-mail address on every login. FerretDB answers a filter on `email` by scanning `users`, so
// the repository keeps each address's member id in a document of its own, read by `_id`. These tests watch the
// commands a fresh repository (another replica, or this one after a restart) sends.
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServiceConfig } from '../src/config';
import { createUserRepository } from '../src/data';
import { createServer } from '../src/server';
import { env, type Harness, login, PUBLIC_URL, startHarness, uniqueEmail, verifiedMember } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness('account_email_ids');
});

afterAll(async () => {
  await h?.close();
});

/**
 * A new repository on the service's connection, and the filters sent to `users` since it was made: by any code on that
 * connection (the service's own consumers and jobs too), so each test reads only the filters naming its members.
 */
function freshRepository() {
  const { conn } = h.server.context;
  const filters: Array<Record<string, unknown>> = [];
  conn.set('debug', (collection: string, method: string, filter: unknown) => {
    if (collection === 'users' && method.startsWith('find')) filters.push({ ...(filter as object) });
  });
  return { users: createUserRepository(conn), filters };
}

/** A verified local member as the repository creates it, without a password (these tests log nobody in). */
const verifiedInput = (email: string) => ({
  email,
  firstName: 'A',
  lastName: 'B',
  passwordHash: null,
  authProvider: 'local' as const,
  emailVerified: true,
  locale: null,
});

/** The lookups of this address (the service may look up others meanwhile). */
const byAddress = (filters: Array<Record<string, unknown>>, email: string) =>
  filters.filter((f) => 'email' in f && JSON.stringify(f.email).includes(email));

describe('finding a member by address', () => {
  it('reads a registered member by id, with no filter on the address, from a repository that never saw them', async () => {
    const member = await verifiedMember(h, 'email-ids');
    const { users, filters } = freshRepository();
    try {
      const found = await users.findForLogin(member.email.toUpperCase());
      expect(found?.email).toBe(member.email);
      expect(filters.length).toBeGreaterThan(0);
      expect(byAddress(filters, member.email)).toEqual([]);
      // And the login itself, through the service.
      expect((await login(h, member.email, member.password)).res.status).toBe(200);
    } finally {
      h.server.context.conn.set('debug', false);
    }
  });

  it('does not look an address without a hint up on login; the repair writes the hint, then the member is found by id', async () => {
    // A member from before the hints (or whose hint write failed): in `users` only.
    const { conn } = h.server.context;
    const email = uniqueEmail('no-hint');
    const seed = createUserRepository(conn);
    const created = await seed.create(verifiedInput(email));
    await seed.hintModel.deleteOne({ _id: email });

    const first = freshRepository();
    try {
      // As for an unknown address: no scan of `users` (an unknown address would wait for it, and so tell itself apart).
      expect(await first.users.findForLogin(email)).toBeNull();
      expect(byAddress(first.filters, email)).toEqual([]);
      // The repair since a moment after the member's creation leaves it; the one that covers it writes its hint.
      expect(await seed.repairEmailHints(new Date(Date.now() + 60_000))).toBe(0);
      expect(await seed.hintModel.findById(email).lean()).toBeNull();
      expect(await seed.repairEmailHints(new Date(Date.now() - 60_000))).toBeGreaterThanOrEqual(1);
      expect(await seed.hintModel.findById(email).lean()).toEqual({ _id: email, userId: created._id });

      const second = freshRepository();
      expect((await second.users.findForLogin(email))?._id).toBe(created._id);
      expect(byAddress(second.filters, email)).toEqual([]);
    } finally {
      conn.set('debug', false);
    }
  });

  it("writes every member's missing hint when a replica starts (its sweeper's first pass)", async () => {
    const { conn, dbName } = h.server.context;
    const member = await verifiedMember(h, 'hint-at-start');
    const seed = createUserRepository(conn);
    await seed.hintModel.deleteOne({ _id: member.email });
    const replica = await createServer(
      loadServiceConfig({
        ...env,
        PORT: '0',
        BILLING_EVENTS_FROM: 'new',
        LOG_LEVEL: 'silent',
        MONGO_DB: dbName,
        PUBLIC_URL,
      }),
    );
    try {
      for (const until = Date.now() + 10_000; !(await seed.hintModel.findById(member.email).lean()); ) {
        if (Date.now() > until) throw new Error('no hint written');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await login(h, member.email, member.password)).res.status).toBe(200);
    } finally {
      await replica.close();
    }
  });

  it('reads a hint and a member by id for an unknown address, as for a member, and scans nothing', async () => {
    const member = await verifiedMember(h, 'same-reads');
    const { conn } = h.server.context;
    // what the registration left to run after its answer (the hint, the event, the mail) is done before counting
    await h.server.context.background.idle();
    const users = createUserRepository(conn);
    const stored = await users.hintModel.findById(member.email).lean();
    // Every read of users and hints that the lookup makes, as `collection: filter keys`. Only the lookup's own: the
    // server's consumers read members too when other lanes' events reach them on the shared test NATS (a mail's
    // names), so a read counts only inside the lookup's async context.
    const reads: string[] = [];
    const lookup = new AsyncLocalStorage<true>();
    const find = (email: string) => lookup.run(true, () => users.findForLogin(email));
    conn.set('debug', (collection: string, method: string, filter: unknown) => {
      if (!lookup.getStore()) return;
      if (method.startsWith('find') && (collection === 'users' || collection === 'user_email_ids'))
        reads.push(`${collection}: ${Object.keys(filter as object).join(',')}`);
    });
    try {
      expect((await find(member.email))?._id).toBe(stored?.userId);
      const forMember = reads.splice(0);
      expect(await find(uniqueEmail('nobody-reads'))).toBeNull();
      const forNobody = reads.splice(0);
      expect(forMember).toEqual(['user_email_ids: _id', 'users: _id']);
      expect(forNobody).toEqual(forMember);
      // Again for the member, now known to this repository: the same two reads (none saved: that would tell too).
      await find(member.email);
      expect(reads).toEqual(forMember);
    } finally {
      conn.set('debug', false);
    }
  });

  it('does not trust a hint that names another member, and puts the right one back', async () => {
    const { conn } = h.server.context;
    const a = await verifiedMember(h, 'hint-a');
    const b = await verifiedMember(h, 'hint-b');
    const seed = createUserRepository(conn);
    const idOf = async (email: string) => (await seed.model.findOne({ email }).lean())?._id;
    const [idA, idB] = [await idOf(a.email), await idOf(b.email)];
    await seed.hintModel.updateOne({ _id: a.email }, { $set: { userId: idB } });

    const { users, filters } = freshRepository();
    try {
      expect((await users.findForLogin(a.email))?._id).toBe(idA);
      expect(byAddress(filters, a.email)).toEqual([{ email: a.email }]);
      expect((await seed.hintModel.findById(a.email).lean())?.userId).toBe(idA);
    } finally {
      conn.set('debug', false);
    }
  });

  it('answers an unknown address with nobody, and writes no hint for it', async () => {
    const { users } = freshRepository();
    const email = uniqueEmail('nobody');
    try {
      expect(await users.findForLogin(email)).toBeNull();
      expect(await users.hintModel.findById(email).lean()).toBeNull();
    } finally {
      h.server.context.conn.set('debug', false);
    }
  });

  it('reads the members of logins that arrive together with one command, each login its own member', async () => {
    const { conn } = h.server.context;
    const seed = createUserRepository(conn);
    const created = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => seed.create(verifiedInput(uniqueEmail(`burst-${i}`)))),
    );
    await h.server.context.background.idle();
    const { users, filters } = freshRepository();
    try {
      const found = await Promise.all(created.map((u) => users.findForLogin(u.email)));
      expect(found.map((u) => u?._id)).toEqual(created.map((u) => u._id));
      // One read of the six members (after one read of their six hints, not watched here).
      const theirs = filters.filter((f) => created.some((u) => JSON.stringify(f).includes(u._id)));
      expect(theirs).toEqual([{ _id: { $in: created.map((u) => u._id) } }]);
    } finally {
      conn.set('debug', false);
    }
  });
});
