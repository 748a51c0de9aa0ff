// The workspace migration on a copy of a full database: members make data of every journey through the public API
// (uploads, playlists, a paired screen on a schedule, a group, a takeover and its template, alert rules, a bulk change,
// points by card, a plan upgrade, a sale and its licence, invitations and a membership in another's workspace); every
// service's database is copied (every collection, with the services' driver); the copy's account database is taken
// back to before teams (the collections the team feature added are dropped); the real operator command runs on the
// copy twice. Every document of every collection must be unchanged but the new workspace rows, which must be exactly
// one workspace and one owner row per member; the books must be equal; the second run must create nothing. The same
// command on the live database creates nothing and changes no membership.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from './account-flows';
import {
  buyPointsByCard,
  type ContentSet,
  contentOfEveryKind,
  joinWorkspace,
  listingOnSale,
  ownWorkspaceId,
  pendingInvitation,
} from './journeys';
import { type Api, signedInMember } from './player-helpers';

const run = promisify(execFile);
const SERVICES = ['account', 'billing', 'file_conversion', 'marketplace', 'screens'] as const;
/** What the team feature added to account's database: none of it existed before the upgrade. */
const TEAM_COLLECTIONS = ['workspaces', 'workspace_members', 'workspace_invitations', 'audit_log', 'audit_entry_ids'];
const COPY_SUFFIX = '_premigration';

const stackEnv = () => ({ ...process.env, ...(inject('stackEnv') ?? {}) }) as Record<string, string>;
const liveName = (service: string) => `${stackEnv().MONGO_DB_PREFIX ?? ''}pagecast_${service}`;
const copyName = (service: string) => `${liveName(service)}${COPY_SUFFIX}`;

type Dump = Record<string, string[]>; // "db.collection" → every document as canonical extended JSON, by _id

let client: mongoose.mongo.MongoClient;
let seller: Api;
let buyer: Api;
let bystander: Api;
let editor: Api;
let content: ContentSet;

/** Every document of every collection of `db`, each as canonical EJSON, sorted by _id. */
async function dumpDb(db: string): Promise<Dump> {
  const out: Dump = {};
  for (const { name } of await client.db(db).listCollections().toArray()) {
    const docs = await client.db(db).collection(name).find({}).sort({ _id: 1 }).toArray();
    out[`${db.replace(COPY_SUFFIX, '')}.${name}`] = docs.map((d) =>
      mongoose.mongo.BSON.EJSON.stringify(d, { relaxed: false }),
    );
  }
  return out;
}

async function dumpCopies(): Promise<Dump> {
  const all: Dump = {};
  for (const s of SERVICES) Object.assign(all, await dumpDb(copyName(s)));
  return all;
}

/** Copies every collection of `from` into `to` (dropped first), documents as they are. */
async function copyDb(from: string, to: string): Promise<number> {
  await client.db(to).dropDatabase();
  let copied = 0;
  for (const { name } of await client.db(from).listCollections().toArray()) {
    const docs = await client.db(from).collection(name).find({}).toArray();
    await client.db(to).createCollection(name);
    for (let i = 0; i < docs.length; i += 500)
      await client
        .db(to)
        .collection(name)
        .insertMany(docs.slice(i, i + 500));
    copied += docs.length;
  }
  return copied;
}

/** The operator command, as an operator runs it, against database `db` (MONGO_DB). */
async function migrate(db: string): Promise<{ workspaces: number; owners: number; scanned: number }> {
  const { stdout } = await run('npm', ['-w', 'services/account', 'run', '--silent', 'migrate-workspaces'], {
    cwd: repoRoot,
    env: { ...stackEnv(), MONGO_DB: db, LOG_LEVEL: 'warn' },
    timeout: 120_000,
  });
  const made = stdout.match(/workspaces created: (\d+), owner rows created: (\d+)/);
  const scanned = stdout.match(/members read: (\d+)/);
  if (!made || !scanned) throw new Error(`unexpected output of migrate-workspaces:\n${stdout}`);
  return { workspaces: Number(made[1]), owners: Number(made[2]), scanned: Number(scanned[1]) };
}

interface Books {
  /** per ledger (account id): its entries (seq, amount, balance, type) in order */
  ledgers: Record<string, Array<{ seq: number; amount: number; balance: number; type: string }>>;
  /** every ledger's last balance, summed */
  sumOfBalances: number;
  boughtByCard: number;
  spent: number;
}

async function books(db: string): Promise<Books> {
  const entries = await client
    .db(db)
    .collection<{ _id: string; accountId: string; seq: number; amount: number; balance: number; type: string }>(
      'point_transactions',
    )
    .find({})
    .sort({ accountId: 1, seq: 1 })
    .toArray();
  const ledgers: Books['ledgers'] = {};
  let boughtByCard = 0;
  let spent = 0;
  for (const e of entries) {
    const list = ledgers[e.accountId] ?? [];
    list.push({ seq: e.seq, amount: e.amount, balance: e.balance, type: e.type });
    ledgers[e.accountId] = list;
    if ((e as { paymentIntentId?: string | null }).paymentIntentId) boughtByCard += e.amount;
    if (e.amount < 0) spent -= e.amount;
  }
  const sumOfBalances = Object.values(ledgers).reduce((sum, l) => sum + (l.at(-1)?.balance ?? 0), 0);
  return { ledgers, sumOfBalances, boughtByCard, spent };
}

beforeAll(async () => {
  client = await new mongoose.mongo.MongoClient(stackEnv().MONGO_URL as string).connect();
  // the journeys: a seller with content of every kind, a listing, points by card and a plan; a buyer who buys the
  // listing (licence, seller's earnings); a member who only registered; an editor in the seller's workspace and a
  // pending invitation there
  [seller, buyer, bystander, editor] = await Promise.all([
    signedInMember(),
    signedInMember(),
    signedInMember(),
    signedInMember(),
  ]);
  content = await contentOfEveryKind(seller, 'Migration');
  const listing = await listingOnSale(seller, 'Migration listing');
  expect(await buyPointsByCard(seller)).toBe(10000);
  await seller.json('POST', '/api/membership/upgrade', { membershipTier: 'standard', expectedCost: 3000 });
  expect(await buyPointsByCard(buyer)).toBe(10000);
  await buyer.json('POST', `/api/marketplace/purchase/${listing.id}`, { expectedPrice: 3000 });
  const sellerWorkspace = await ownWorkspaceId(seller);
  await joinWorkspace(seller, sellerWorkspace, editor, 'editor');
  await pendingInvitation(seller, sellerWorkspace);
  // the sale's earnings reach the seller's ledger by an event: wait until billing's books stay the same
  const start = Date.now();
  let last = '';
  for (;;) {
    const now = JSON.stringify(await books(liveName('billing')));
    if (now === last) break;
    last = now;
    if (Date.now() - start > 30_000) throw new Error('billing did not settle in 30 s');
    await new Promise((r) => setTimeout(r, 1_500));
  }
}, 300_000);

afterAll(async () => {
  if (!client) return;
  for (const s of SERVICES) await client.db(copyName(s)).dropDatabase();
  await client.close();
});

describe('the workspace migration', () => {
  it('on a copy taken back to before teams: keeps every document and the books, adds one workspace and owner each, twice idempotent', async () => {
    let copied = 0;
    for (const s of SERVICES) copied += await copyDb(liveName(s), copyName(s));
    const account = client.db(copyName('account'));
    for (const name of TEAM_COLLECTIONS)
      await account
        .collection(name)
        .drop()
        .catch(() => undefined);
    const users = await account
      .collection<{ _id: string }>('users')
      .find({}, { projection: { _id: 1 } })
      .toArray();
    const userIds = users.map((u) => u._id).sort();
    for (const m of [seller, buyer, bystander, editor]) expect(userIds).toContain(await ownWorkspaceId(m));

    const before = await dumpCopies();
    const booksBefore = await books(copyName('billing'));
    const first = await migrate(copyName('account'));
    const afterFirst = await dumpCopies();
    const second = await migrate(copyName('account'));
    const afterSecond = await dumpCopies();

    // one workspace and one owner row per member, nothing else
    expect(first).toEqual({ scanned: userIds.length, workspaces: userIds.length, owners: userIds.length });
    expect(second).toEqual({ scanned: userIds.length, workspaces: 0, owners: 0 });
    const workspaces = await account
      .collection<{ _id: string; approvalRequired: boolean }>('workspaces')
      .find({})
      .toArray();
    expect(workspaces.map((w) => w._id).sort()).toEqual(userIds);
    expect(workspaces.every((w) => w.approvalRequired === false)).toBe(true);
    const members = await account
      .collection<{ _id: string; workspaceId: string; userId: string; role: string }>('workspace_members')
      .find({})
      .toArray();
    expect(members.map((m) => m._id).sort()).toEqual(userIds.map((id) => `${id}:${id}`).sort());
    expect(members.every((m) => m.role === 'owner' && m.workspaceId === m.userId)).toBe(true);
    // the journeys' members' workspaces are named as at registration (others' names follow later profile changes)
    const journeyIds = await Promise.all([seller, buyer, bystander, editor].map(ownWorkspaceId));
    const liveWorkspaces = await client
      .db(liveName('account'))
      .collection<{ _id: string; name: string }>('workspaces')
      .find({ _id: { $in: journeyIds } })
      .toArray();
    expect(liveWorkspaces).toHaveLength(4);
    const named = new Map(workspaces.map((w) => [w._id, (w as unknown as { name: string }).name]));
    for (const w of liveWorkspaces) expect(named.get(w._id), w._id).toBe(w.name);

    // every other collection of every service: document for document as before
    const added = new Set(['pagecast_account.workspaces', 'pagecast_account.workspace_members']);
    const key = (k: string) => k.slice(k.indexOf('pagecast_'));
    // (the service's index set-up creates the team's other collections again: empty, which a missing one also is)
    const changed = Object.keys({ ...before, ...afterFirst }).filter(
      (k) => !added.has(key(k)) && JSON.stringify(before[k] ?? []) !== JSON.stringify(afterFirst[k] ?? []),
    );
    expect(changed).toEqual([]);
    const created = Object.keys(afterFirst).filter((k) => !(k in before) && !added.has(key(k)));
    expect(created.every((k) => afterFirst[k]?.length === 0)).toBe(true);
    // the second run: nothing at all
    expect(afterSecond).toEqual(afterFirst);

    // the books: every ledger's entries and balances, bought and spent, and the sum of every balance
    const booksAfter = await books(copyName('billing'));
    expect(booksAfter).toEqual(booksBefore);
    for (const m of [seller, buyer]) {
      const id = await ownWorkspaceId(m);
      const summary = await m.json<{ balance: number }>('GET', '/api/points/summary');
      expect(booksAfter.ledgers[id]?.at(-1)?.balance, `${id}'s ledger in the copy`).toBe(summary.balance);
    }
    expect(booksAfter.ledgers[await ownWorkspaceId(buyer)]?.map((e) => e.amount).slice(-2)).toEqual([10000, -3000]);
    // the copy holds the journeys' objects (a copy of empty collections would pass the rest)
    const everything = Object.values(afterFirst).flat().join('\n');
    for (const [kind, id] of Object.entries(content)) {
      const wanted = typeof id === 'string' ? id : id.id;
      expect(everything.includes(wanted), `${kind} ${wanted} in the copy`).toBe(true);
    }

    const documents = Object.values(afterFirst).reduce((n, d) => n + d.length, 0);
    process.stdout.write(
      `[migration] copied ${copied} documents of ${Object.keys(before).length} collections in ${SERVICES.length} ` +
        `databases; members ${userIds.length}; first run made ${first.workspaces} workspaces and ${first.owners} ` +
        `owner rows, the second ${second.workspaces} and ${second.owners}; ${documents} documents compared after; ` +
        `${Object.keys(booksAfter.ledgers).length} ledgers, balances sum ${booksAfter.sumOfBalances} pt, bought by ` +
        `card ${booksAfter.boughtByCard} pt, spent ${booksAfter.spent} pt\n`,
    );
  }, 240_000);

  it('on the live, upgraded database: creates nothing and keeps every membership', async () => {
    const account = client.db(liveName('account'));
    const rows = async () => ({
      workspaces: await account.collection('workspaces').find({}).sort({ _id: 1 }).toArray(),
      members: await account.collection('workspace_members').find({}).sort({ _id: 1 }).toArray(),
      invitations: await account.collection('workspace_invitations').find({}).sort({ _id: 1 }).toArray(),
    });
    const before = await rows();
    const made = await migrate(liveName('account'));
    expect({ workspaces: made.workspaces, owners: made.owners }).toEqual({ workspaces: 0, owners: 0 });
    expect(await rows()).toEqual(before);
    // the editor still belongs to the seller's workspace
    const sellerWorkspace = await ownWorkspaceId(seller);
    const theirs = await editor.json<{ workspaces: Array<{ id: string; role: string }> }>('GET', '/api/workspaces');
    expect(theirs.workspaces.find((w) => w.id === sellerWorkspace)?.role).toBe('editor');
  }, 120_000);
});
