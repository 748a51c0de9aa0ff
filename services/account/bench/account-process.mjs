// What the account benchmarks share: the service started as its own process (tsx src/main.ts) against the test
// servers on a database of its own, members registered and verified through the real mail, the shape of a member
// written straight into the database, and the clean-up (the database and the service's durables).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectNats, createLogger } from '@pagecast/service-kit';
import { removeDurables, testEnv } from '@pagecast/service-kit/testing';
import { freePort } from '../../../scripts/lib/net.mjs';
import { durableName } from '../src/events/index.ts';

const serviceDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Polls `check` every 200 ms until it gives a value; throws after `timeoutMs`. */
export async function waitFor(check, what, timeoutMs) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The account service as its own process on a new database `<dbPrefix>_<time>`, ready to answer. Its database is new:
 * billing's older events concern nobody in it, so it reads only new ones (replaying the test stream's thousands of
 * them, a users lookup each, took CPU from the first measured round). `stop()` ends it and removes what it made.
 */
export async function startAccount({ dbPrefix, timeoutMs }) {
  const env = testEnv();
  const port = await freePort();
  const dbName = `${dbPrefix}_${Date.now().toString(36)}`;
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(join(serviceDir, '../../node_modules/.bin/tsx'), ['src/main.ts'], {
    cwd: serviceDir,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      MONGO_DB: dbName,
      LOG_LEVEL: 'warn',
      BILLING_EVENTS_FROM: 'new',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    child.kill('SIGTERM');
    await once(child, 'exit').catch(() => undefined);
    // The bench's own database: dropped with the driver the service uses.
    const { default: mongoose } = await import('mongoose');
    const conn = await mongoose.createConnection(env.MONGO_URL, { dbName }).asPromise();
    await conn.dropDatabase();
    await conn.close();
    // And the service's durables, named after that database.
    const { nc, jsm } = await connectNats(env.NATS_URL, createLogger('bench-cleanup', 'warn'), 'bench-cleanup');
    try {
      await removeDurables(jsm, durableName(dbName));
    } finally {
      await nc.close();
    }
  };
  try {
    await waitFor(async () => (await fetch(`${base}/readyz`)).ok, 'account to be ready', timeoutMs);
  } catch (err) {
    await stop();
    throw err;
  }
  return { env, base, child, dbName, stop };
}

/**
 * Registers `emails` (`batch` at a time) with `password` through `post(path, body)`, then verifies each through the
 * link of its mail in maildev. Every address starts with `mailPrefix`, which no other run's addresses do.
 */
export async function registerVerified({ env, post, emails, password, mailPrefix, batch, timeoutMs }) {
  for (let i = 0; i < emails.length; i += batch) {
    await Promise.all(
      emails.slice(i, i + batch).map(async (email) => {
        const reg = await post('/api/auth/register', { email, firstName: 'Bench', lastName: 'Mark', password });
        if (!reg.ok) throw new Error(`register answered ${reg.status}`);
      }),
    );
  }
  const mails = await waitFor(
    async () => {
      const all = await (await fetch(`${env.MAILDEV_API_URL}/email`)).json();
      const mine = all.filter((m) => m.to.some((t) => t.address.startsWith(mailPrefix)));
      return mine.length >= emails.length ? mine : undefined;
    },
    'the verification mails',
    timeoutMs,
  );
  for (const mail of mails) {
    const token = /[?&]token=([\w-]+)/.exec(mail.text)?.[1];
    if (!(await post('/api/auth/verify-email', { token })).ok) throw new Error('verification failed');
  }
}

/** A verified local member as the users collection holds it, for filling a database straight (no mail, no hash). */
export const storedMember = (id, email, now) => ({
  _id: id,
  email,
  firstName: 'Bench',
  lastName: 'Mark',
  profileImageUrl: null,
  points: 0,
  membershipTier: 'free',
  passwordHash: `$argon2id$v=19$m=19456,t=2,p=1$${'x'.repeat(70)}`,
  authProvider: 'local',
  emailVerified: true,
  createdAt: now,
  updatedAt: now,
});
