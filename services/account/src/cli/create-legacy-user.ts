// Operator command: creates an account of the old external login (authProvider 'external', verified, no
// password), which can then only be turned into a local account by migration (POST /api/auth/migrate-account).
//   npm -w services/account run create-legacy-user -- --email a@b.c --first-name 太郎 --last-name 山田 [--session]
// --session also opens a session and prints its cookie, the only way into such an account now that the old
// login is gone (set it as `pc_session` in the browser, then open /migrate-account).
import { parseArgs } from 'node:util';
import { Email, FirstName, LastName, SESSION_COOKIE, subjects } from '@pagecast/contracts';
import {
  connectMongo,
  connectNats,
  createLogger,
  databaseNameOf,
  createOutbox,
  isDuplicateKeyError,
  nameUuid,
} from '@pagecast/service-kit';
import { z } from 'zod';
import { loadServiceConfig } from '../config';
import { createRepositories } from '../data';
import { chooseLocale, SESSION_LIFETIME_MS } from '../domain';
import { createSessionTokens } from '../data/session-tokens';
import { DATABASE_NAME } from '../server';
import { createOwnWorkspace } from '../use-cases/own-workspace';

const Args = z.object({ email: Email, firstName: FirstName, lastName: LastName, session: z.boolean() });

export async function createLegacyUser(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const { values } = parseArgs({
    args: argv,
    options: {
      email: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      locale: { type: 'string' },
      session: { type: 'boolean', default: false },
    },
  });
  const parsed = Args.safeParse({
    email: values.email,
    firstName: values['first-name'],
    lastName: values['last-name'],
    session: values.session,
  });
  if (!parsed.success) {
    throw new Error(
      `usage: create-legacy-user --email a@b.c --first-name 太郎 --last-name 山田 [--locale ja] [--session]\n${parsed.error.issues
        .map((i) => `  --${i.path.join('.')}: ${i.message}`)
        .join('\n')}`,
    );
  }
  const args = parsed.data;
  const config = loadServiceConfig(env);
  const logger = createLogger('account-cli', env.LOG_LEVEL ?? 'warn');
  const conn = await connectMongo(config.MONGO_URL, databaseNameOf(config, DATABASE_NAME), logger);
  const nats = await connectNats(config.NATS_URL, logger, 'account-cli');
  try {
    const data = createRepositories(conn);
    await data.init();
    const locale = chooseLocale({ page: values.locale });
    let user: Awaited<ReturnType<typeof data.users.create>>;
    try {
      user = await data.users.create({
        email: args.email,
        firstName: args.firstName,
        lastName: args.lastName,
        passwordHash: null,
        authProvider: 'external',
        emailVerified: true,
        locale,
      });
    } catch (err) {
      if (isDuplicateKeyError(err)) throw new Error(`an account with ${args.email} exists already`);
      throw err;
    }
    // Every account owns a workspace, this one too.
    await createOwnWorkspace(data, user, user.createdAt);
    // Billing opens the member's ledger from this event, as for any registration.
    const outbox = createOutbox(conn, nats.js, logger);
    await outbox.add(
      subjects.userRegistered,
      {
        userId: user._id,
        email: user.email,
        firstName: args.firstName,
        lastName: args.lastName,
        membershipTier: user.membershipTier,
        points: user.points,
        registeredAt: user.createdAt.toISOString(),
        locale,
      },
      { id: nameUuid(`account.user.registered:${user._id}`, 'v8') },
    );
    const lines = [`created external account ${user._id} <${user.email}>`];
    if (args.session) {
      const session = await data.sessions.create({
        userId: user._id,
        userAgent: 'create-legacy-user',
        ip: null,
        lifetimeMs: SESSION_LIFETIME_MS,
      });
      const token = await createSessionTokens(data.keys).sign(user._id, session._id);
      lines.push(`session ${session._id}`, `${SESSION_COOKIE}=${token}`);
    }
    return lines.join('\n');
  } finally {
    await nats.nc.drain();
    await conn.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  createLegacyUser(process.argv.slice(2)).then(
    (out) => {
      process.stdout.write(`${out}\n`);
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
