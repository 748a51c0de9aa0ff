import { randomUUID } from 'node:crypto';
import { authProviders, type MembershipTier, membershipTiers } from '@pagecast/contracts';
import { createBatchLoader, createWriteLocks, isDuplicateKeyError, LRUCache, readByIds } from '@pagecast/service-kit';
import mongoose from 'mongoose';
import { newMemberDefaults, type UserRecord } from '../domain';

const nullableDate = { type: Date, default: null };
const nullableString = { type: String, default: null };

const userSchema = new mongoose.Schema<UserRecord>(
  {
    _id: { type: String, required: true },
    // Stored lowercased (the contracts' Email schema lowercases), so the unique index is case-insensitive.
    email: { type: String, required: true, unique: true },
    firstName: nullableString,
    lastName: nullableString,
    profileImageUrl: nullableString,
    points: { type: Number, required: true },
    membershipTier: { type: String, enum: membershipTiers, required: true },
    pendingDowngradeTier: { type: String, enum: [...membershipTiers, null], default: null },
    downgradeEffectiveMonth: { type: Number, default: null },
    trialEndsAt: nullableDate,
    passwordHash: nullableString,
    authProvider: { type: String, enum: authProviders, required: true },
    emailVerified: { type: Boolean, default: false },
    verificationTokenHash: nullableString,
    verificationExpires: nullableDate,
    passwordResetTokenHash: nullableString,
    passwordResetExpires: nullableDate,
    migratedAt: nullableDate,
    hasSeenWelcome: { type: Boolean, default: false },
    firstLoginAt: nullableDate,
    locale: nullableString,
    pointsSyncedAt: nullableDate,
    membershipSyncedAt: nullableDate,
  },
  { collection: 'users', versionKey: false, timestamps: true, minimize: false },
);
userSchema.index({ verificationTokenHash: 1 });
userSchema.index({ passwordResetTokenHash: 1 });

const defineModel = (conn: mongoose.Connection) => conn.model('User', userSchema);
type UserModel = ReturnType<typeof defineModel>;

/**
 * Billing's figures as account last heard them, one document per member and kind (`points:<id>`,
 * `membership:<id>`), never in the user's own document: FerretDB writes an update back as the whole document it
 * read, so a balance event applied while the member verifies their e-mail could otherwise undo the verification.
 * Reads overlay these on the user.
 */
interface BillingView {
  _id: string;
  at: Date;
  points?: number;
  membershipTier?: MembershipTier;
  pendingDowngradeTier?: MembershipTier | null;
  downgradeEffectiveMonth?: number | null;
}
const billingViewSchema = new mongoose.Schema<BillingView>(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
    points: { type: Number },
    membershipTier: { type: String, enum: membershipTiers },
    pendingDowngradeTier: { type: String, enum: [...membershipTiers, null] },
    downgradeEffectiveMonth: { type: Number },
  },
  { collection: 'billing_views', versionKey: false, minimize: false },
);
const defineViewModel = (conn: mongoose.Connection) => conn.model('BillingView', billingViewSchema);
type BillingViewModel = ReturnType<typeof defineViewModel>;

/**
 * E-mail address -> member id, one document per address with the address as `_id`: what FerretDB finds from an
 * index. A member is found by address on every login, and FerretDB serves a filter on `email` by scanning `users`
 * despite its unique index (`npm run bench -- member`: 322 ms of its CPU per lookup among 20,000 members, against
 * 1.0 ms for the hint and the member read by `_id`). A hint, never an answer: the member read by id must still carry
 * the address. Addresses never change, and members are not deleted, so a hint written once stays right.
 *
 * A login never looks an address up without its hint (findForLogin): the scan made an unknown address answer
 * measurably later than a member's (and cost FerretDB a scan per guess). A member without a hint (from before hints,
 * a registration whose hint write failed) gets it from `repairEmailHints`, run by the sweeper: over every member at
 * start, over the recent ones on each later pass. The other lookups (findByEmail: after the answer, or signed in)
 * still fall back to the address.
 */
interface EmailHint {
  _id: string;
  userId: string;
}
const emailHintSchema = new mongoose.Schema<EmailHint>(
  { _id: { type: String, required: true }, userId: { type: String, required: true } },
  { collection: 'user_email_ids', versionKey: false },
);
const defineHintModel = (conn: mongoose.Connection) => conn.model('UserEmailId', emailHintSchema);
type EmailHintModel = ReturnType<typeof defineHintModel>;

export interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string | null;
  authProvider: UserRecord['authProvider'];
  emailVerified: boolean;
  locale: string | null;
  verificationTokenHash?: string;
  verificationExpires?: Date;
}

/** What a profile update sets (an absent field is kept). */
export interface ProfileFields {
  firstName: string;
  lastName: string;
  profileImageUrl?: string | null;
  locale?: string;
}

/** How many address -> id hints the repository keeps (about 100 bytes each). */
const EMAIL_IDS_KEPT = 50_000;

const after = { returnDocument: 'after' as const, lean: true as const };

export function createUserRepository(conn: mongoose.Connection) {
  const model = (conn.models.User as UserModel | undefined) ?? defineModel(conn);
  const views = (conn.models.BillingView as BillingViewModel | undefined) ?? defineViewModel(conn);
  const hints = (conn.models.UserEmailId as EmailHintModel | undefined) ?? defineHintModel(conn);
  // E-mail address -> member id, as last read (bounded: the least recently used goes first), before the stored hints:
  // a member who logs in again costs one read, not two. A hint, never an answer.
  const emailIds = new LRUCache<string, string>({ max: EMAIL_IDS_KEPT });
  // Members and hints are read by _id through batch loaders: the reads asked while one runs go together in the next,
  // one command (`_id: { $in }`, an index search on MongoDB and on the FerretDB the project builds). Logins arrive
  // in bursts under load (their sessions are written together, so their answers go out together), and one command
  // for a burst costs FerretDB one wake-up and this process one turn of its loop: at 50 logins in flight, scratch runs
  // taking turns, the CPU per login beside the hash fell by about a sixth, this main thread's and FerretDB's alike
  // (npm run bench -- login). A lone read waits only for the end of the event loop's turn, and a read asked after a
  // write never joins one already running, so it sees the write.
  const usersById = createBatchLoader<string, UserRecord>(readByIds(model.collection));
  const hintsById = createBatchLoader<string, EmailHint>(readByIds(hints.collection));
  const readViews = readByIds<BillingView>(views.collection);
  /** A member's id, read in place of an unknown address's member (findForLogin). */
  let standIn: string | undefined;
  // Every update of a member's document holds the member's write lock. The document has writers that can meet: the
  // member's own calls (profile, password, the welcome page), their first login, a link's use, and calls anyone can
  // make for the address (a reset or a new link asked for), and FerretDB writes an update back as the whole document
  // it read: two updates of different fields at once lost one in 49 of 60 rounds (a verification was undone by a new
  // link in 4 of 30; test/user-writes.test.ts). These writes are rare (never on a login but the first), so the lock's
  // two writes cost nothing that matters.
  const locks = createWriteLocks(conn, 'user_locks');
  const update = (id: string, filter: Record<string, unknown>, set: Record<string, unknown>) =>
    locks.withLock(id, () => model.findOneAndUpdate({ ...filter, _id: id }, { $set: set }, after));

  /** Stores the address's hint (an upsert: the same value whoever writes it). */
  async function rememberEmail(email: string, userId: string): Promise<void> {
    await hints.collection.updateOne({ _id: email } as never, { $set: { userId } }, { upsert: true });
  }

  /** The user with billing's latest figures over the defaults it was created with. */
  async function overlay(user: UserRecord | null): Promise<UserRecord | null> {
    if (!user) return null;
    // One read for both (`$in` on _id: an index search, see readByIds).
    const found = await readViews([`points:${user._id}`, `membership:${user._id}`]);
    const out = { ...user };
    for (const v of found.values()) {
      if (v._id.startsWith('points:') && v.points !== undefined) {
        out.points = v.points;
        out.pointsSyncedAt = v.at;
      } else if (v._id.startsWith('membership:') && v.membershipTier) {
        out.membershipTier = v.membershipTier;
        out.pendingDowngradeTier = v.pendingDowngradeTier ?? null;
        out.downgradeEffectiveMonth = v.downgradeEffectiveMonth ?? null;
        out.membershipSyncedAt = v.at;
      }
    }
    return out;
  }

  async function byEmail(email: string): Promise<UserRecord | null> {
    const key = email.trim().toLowerCase();
    // A remembered id (this process's, then the stored hint) is read by _id and trusted only when the member read
    // still has this address; otherwise the address is looked up. The driver's own reads (readByIds): what lean()
    // returns, without building and casting a mongoose query (measured: 0.16 against 0.21 ms of the caller's CPU per
    // read, on the path of every login).
    const byId = async (id: string) => {
      const user = await usersById.load(id);
      return user?.email === key ? user : null;
    };
    const remembered = emailIds.get(key);
    if (remembered) {
      const user = await byId(remembered);
      if (user) return user;
      emailIds.delete(key);
    }
    const stored = await hintsById.load(key);
    if (stored && stored.userId !== remembered) {
      const user = await byId(stored.userId);
      if (user) {
        emailIds.set(key, user._id);
        return user;
      }
    }
    // No hint, or a wrong one: the address itself (a scan on FerretDB, so also what an unknown address costs).
    const user = await model.findOne({ email: key }).lean<UserRecord>();
    if (user) {
      emailIds.set(key, user._id);
      await rememberEmail(key, user._id);
    }
    return user;
  }

  /** Writes a view unless a newer one is stored: the first write inserts (unique _id), later ones compare `at`. */
  async function applyView(id: string, userId: string, fields: Omit<BillingView, '_id' | 'at'>, at: Date) {
    if (!(await model.exists({ _id: userId }))) return false; // another database's member: ignored
    try {
      await views.create({ _id: id, at, ...fields });
      return true;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    const res = await views.updateOne({ _id: id, at: { $lte: at } }, { $set: { ...fields, at } });
    return res.matchedCount === 1;
  }

  return {
    model,
    hintModel: hints,
    /**
     * Inserts a user; a taken e-mail surfaces as a duplicate-key error (E11000). `hint: 'later'` leaves the address
     * -> id hint to the caller (rememberEmail), which registration writes after its answer.
     */
    async create(input: NewUser, opts: { hint?: 'now' | 'later' } = {}): Promise<UserRecord> {
      const now = new Date();
      const doc = await model.create({ _id: randomUUID(), ...newMemberDefaults(now), ...input });
      if (opts.hint !== 'later') await rememberEmail(doc.email, doc._id).catch(() => undefined);
      return doc.toObject();
    },
    /**
     * The address -> id hint of a new member: after the member's insert (whose unique e-mail index decides who has
     * the address), so only the winner writes it. A failed write leaves the member without a hint, which their first
     * login's lookup writes: not a failed registration.
     */
    async rememberEmail(email: string, userId: string): Promise<void> {
      await rememberEmail(email, userId).catch(() => undefined);
    },
    async findById(id: string): Promise<UserRecord | null> {
      return overlay(typeof id === 'string' ? ((await usersById.load(id)) ?? null) : null);
    },
    async findByEmail(email: string): Promise<UserRecord | null> {
      return overlay(await byEmail(email));
    },
    /**
     * The member as stored, without billing's figures (two more reads): what a login checks. Its answer carries no
     * member; the client reads the member next (GET /api/auth/user), with the figures.
     *
     * Always the same two reads, whoever holds the address: its stored hint, then a member by id: the hinted one, or
     * for an unknown address another member (a read that finds nothing answers sooner than one that finds a member:
     * 0.2 ms, measured), so an unknown address answers as soon as a member's. No in-memory hint (a member who signed
     * in on this replica would answer a read sooner) and no lookup by address (a scan: see repairEmailHints). Only a
     * hint naming a member who no longer has the address (an operator's change in the database) is followed by the
     * lookup by address, which puts the right hint back.
     */
    async findForLogin(email: string): Promise<UserRecord | null> {
      const key = email.trim().toLowerCase();
      const hint = await hintsById.load(key);
      const user = await usersById.load(hint?.userId ?? standIn ?? `no-member:${key}`);
      if (user && user.email === key) {
        standIn = user._id;
        return user;
      }
      if (!hint) return null;
      const holder = await model.findOne({ email: key }).lean<UserRecord>();
      if (holder) await rememberEmail(key, holder._id);
      return holder;
    },
    /**
     * Writes the missing or wrong address -> id hints of the members created since `since` (every member without it):
     * reads `users` (a scan on FerretDB, `createdAt` or not: the sweeper runs this every 10 minutes, about 0.3 s of
     * FerretDB's CPU among 20,000 members), and their hints by _id a thousand at a time; returns how many it wrote.
     */
    async repairEmailHints(since?: Date): Promise<number> {
      const filter = since ? { createdAt: { $gte: since } } : {};
      const cursor = model.collection.find(filter as never, { projection: { _id: 1, email: 1 }, batchSize: 1000 });
      let written = 0;
      let page: Array<{ _id: string; email: string }> = [];
      const flush = async () => {
        if (page.length === 0) return;
        const found = await readByIds<EmailHint>(hints.collection)(page.map((u) => u.email));
        for (const u of page) {
          if (found.get(u.email)?.userId === u._id) continue;
          await rememberEmail(u.email, u._id);
          emailIds.delete(u.email);
          written += 1;
        }
        page = [];
      };
      for await (const u of cursor as AsyncIterable<{ _id: string; email: string }>) {
        if (typeof u.email !== 'string') continue;
        standIn ??= u._id;
        page.push(u);
        if (page.length >= 1000) await flush();
      }
      await flush();
      return written;
    },
    /** Every member's id, address, name and language, a thousand at a time (the workspace migration reads these). */
    async *pages(): AsyncGenerator<
      Array<Pick<UserRecord, '_id' | 'email' | 'firstName' | 'lastName' | 'locale' | 'createdAt'>>
    > {
      const cursor = model.collection.find({} as never, {
        projection: { _id: 1, email: 1, firstName: 1, lastName: 1, locale: 1, createdAt: 1 },
        batchSize: 1000,
      });
      let page: Array<Pick<UserRecord, '_id' | 'email' | 'firstName' | 'lastName' | 'locale' | 'createdAt'>> = [];
      for await (const u of cursor as AsyncIterable<UserRecord>) {
        page.push(u);
        if (page.length >= 1000) {
          yield page;
          page = [];
        }
      }
      if (page.length > 0) yield page;
    },
    /** Members by id, as stored (no billing figures): names and addresses for lists. */
    async findMany(ids: string[]): Promise<Map<string, UserRecord>> {
      return readByIds<UserRecord>(model.collection)(ids);
    },
    /** Sets a new verification token, replacing any earlier one, on an unverified local account. */
    async replaceVerificationToken(id: string, hash: string, expires: Date): Promise<UserRecord | null> {
      return overlay(
        await update(id, { emailVerified: false }, { verificationTokenHash: hash, verificationExpires: expires }),
      );
    },
    /**
     * Consumes a verification token held by member `id` (the caller found the holder and has claimed the token: see
     * useToken in use-cases/shared.ts); null when that member no longer holds it unexpired.
     */
    async consumeVerificationToken(id: string, hash: string, now: Date): Promise<UserRecord | null> {
      const valid = { verificationTokenHash: hash, verificationExpires: { $gt: now } };
      return overlay(
        await update(id, valid, { emailVerified: true, verificationTokenHash: null, verificationExpires: null }),
      );
    },
    async setResetToken(id: string, hash: string, expires: Date): Promise<UserRecord | null> {
      return overlay(
        await update(id, { authProvider: 'local' }, { passwordResetTokenHash: hash, passwordResetExpires: expires }),
      );
    },
    /**
     * Consumes a reset token held by member `id` and sets the new password in one step (null when that member no
     * longer holds it unexpired). A reset proves the mailbox: verified.
     */
    async consumeResetToken(id: string, hash: string, passwordHash: string, now: Date): Promise<UserRecord | null> {
      const valid = { passwordResetTokenHash: hash, passwordResetExpires: { $gt: now }, authProvider: 'local' };
      return overlay(
        await update(id, valid, {
          passwordHash,
          emailVerified: true,
          passwordResetTokenHash: null,
          passwordResetExpires: null,
        }),
      );
    },
    async setPassword(id: string, passwordHash: string): Promise<UserRecord | null> {
      return overlay(await update(id, { authProvider: 'local' }, { passwordHash }));
    },
    /** Records the first login (informational; which login is the first is decided by a claim). */
    async recordFirstLogin(id: string, now: Date): Promise<void> {
      await update(id, { firstLoginAt: null }, { firstLoginAt: now });
    },
    /** The user holding a verification or reset token that has not expired. */
    async findByVerificationToken(hash: string, now: Date): Promise<UserRecord | null> {
      return overlay(
        await model.findOne({ verificationTokenHash: hash, verificationExpires: { $gt: now } }).lean<UserRecord>(),
      );
    },
    async findByResetToken(hash: string, now: Date): Promise<UserRecord | null> {
      return overlay(
        await model
          .findOne({ passwordResetTokenHash: hash, passwordResetExpires: { $gt: now }, authProvider: 'local' })
          .lean<UserRecord>(),
      );
    },
    async markWelcomeSeen(id: string): Promise<UserRecord | null> {
      return overlay(await update(id, {}, { hasSeenWelcome: true }));
    },
    async updateProfile(id: string, fields: ProfileFields): Promise<UserRecord | null> {
      return overlay(await update(id, {}, { ...fields }));
    },
    /**
     * External → local. The 100-point bonus is billing's ledger entry (from account.user.migrated.v1): points here
     * change only through billing's balance events.
     */
    async migrate(id: string, passwordHash: string, now: Date): Promise<UserRecord | null> {
      return overlay(
        await update(
          id,
          { authProvider: 'external', migratedAt: null },
          { passwordHash, authProvider: 'local', migratedAt: now },
        ),
      );
    },
    /** Billing's balance, unless a newer one was applied already (idempotent, order-safe). */
    applyPoints(id: string, balance: number, at: Date): Promise<boolean> {
      return applyView(`points:${id}`, id, { points: balance }, at);
    },
    applyMembership(
      id: string,
      m: { tier: MembershipTier; pendingDowngradeTier: MembershipTier | null; downgradeEffectiveMonth: number | null },
      at: Date,
    ): Promise<boolean> {
      return applyView(
        `membership:${id}`,
        id,
        {
          membershipTier: m.tier,
          pendingDowngradeTier: m.pendingDowngradeTier,
          downgradeEffectiveMonth: m.downgradeEffectiveMonth,
        },
        at,
      );
    },
  };
}
export type UserRepository = ReturnType<typeof createUserRepository>;
