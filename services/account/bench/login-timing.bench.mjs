// Can the answer to a wrong login tell whether the address is a member's? Starts the account service as its own
// process (tsx src/main.ts) against the test servers, registers and verifies members through the real mail, then
// sends wrong logins one at a time, taking turns (in a random order each turn):
//   - an unknown address (a new one each time)
//   - a member's address with a wrong password, the member having signed in before (this replica remembers them)
//   - a member's address with a wrong password, the member not having signed in since the service started
// and prints the median answer time of each, with their status and body. Then it adds filler members straight into
// the database (as a grown service has) and measures again: a lookup that scans `users` shows there. Every attempt
// comes from an address of its own, so no rate limit is met. Figures only: it never fails on time, only when the
// answers differ in status or body.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { CLIENT_ADDRESS_HEADER } from '@pagecast/contracts';
import { signClientAddressHeader } from '@pagecast/service-kit';
import { percentile } from '../../../scripts/lib/stats.mjs';
import { registerVerified, startAccount, storedMember } from './account-process.mjs';

const median = (xs) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const shuffled = (xs) => {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
};
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

export async function benchLoginTiming({ log = console.log, attempts = 200, filler = 10_000 } = {}) {
  const { env, base, dbName, stop } = await startAccount({ dbPrefix: 'account_timing_bench', timeoutMs: 60_000 });
  try {
    // Every request from an address of its own, as the gateway states it (signed): 198.18.0.0/15, the benchmarking
    // range.
    let nextAddress = 0;
    const address = () => {
      nextAddress += 1;
      return `198.18.${Math.floor(nextAddress / 250) % 256}.${(nextAddress % 250) + 1}`;
    };
    const post = (path, body) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [CLIENT_ADDRESS_HEADER]: signClientAddressHeader(address(), env.INTERNAL_SECRET),
        },
        body: JSON.stringify(body),
      });
    const password = 'timing bench password';
    const tag = randomBytes(4).toString('hex');
    const emailOf = (group, i) => `timing-${tag}-${group}-${i}@example.com`;
    // Two groups of members: `warm` sign in once before the measurement, `cold` do not.
    const members = ['warm', 'cold'].flatMap((group) =>
      Array.from({ length: attempts }, (_, i) => ({ group, email: emailOf(group, i) })),
    );
    await registerVerified({
      env,
      post,
      emails: members.map((m) => m.email),
      password,
      mailPrefix: `timing-${tag}-`,
      batch: 25,
      timeoutMs: 60_000,
    });
    for (const { email } of members.filter((m) => m.group === 'warm')) {
      const res = await post('/api/auth/local-login', { email, password });
      if (!res.ok) throw new Error(`login answered ${res.status}`);
    }

    const wrong = async (email) => {
      const t0 = performance.now();
      const res = await post('/api/auth/local-login', { email, password: 'not the password' });
      const body = await res.text();
      return { ms: performance.now() - t0, answer: `${res.status} ${body}` };
    };
    /** One round: the three kinds take turns, `attempts` each, one request in flight. */
    const round = async (label, suffix) => {
      const kinds = {
        'unknown address': (i) => `timing-${tag}-nobody-${suffix}-${i}@example.com`,
        'member (signed in before), wrong password': (i) => emailOf('warm', i),
        'member (not signed in since start), wrong password': (i) => emailOf('cold', i),
      };
      const times = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
      const answers = new Map();
      // a few unmeasured ones first (V8 compiles the path)
      for (let i = 0; i < 10; i++) await wrong(`timing-${tag}-warmup-${suffix}-${i}@example.com`);
      for (let i = 0; i < attempts; i++) {
        // in a new order each time: whatever a request leaves behind (a rate-limit read, a collection) falls on
        // every kind alike
        const order = shuffled(Object.entries(kinds));
        for (const [kind, emailAt] of order) {
          const { ms, answer } = await wrong(emailAt(i));
          times[kind].push(ms);
          answers.set(answer, (answers.get(answer) ?? 0) + 1);
        }
      }
      log(`${label}:`);
      for (const [kind, xs] of Object.entries(times)) {
        const sorted = [...xs].sort((a, b) => a - b);
        log(
          `  ${kind.padEnd(52)} median ${median(xs).toFixed(2)} ms, mean ${mean(xs).toFixed(2)} ms, p95 ${percentile(sorted, 95).toFixed(2)} ms (${xs.length})`,
        );
      }
      log(`  answers: ${[...answers].map(([a, n]) => `${n} x ${a}`).join('; ')}`);
      if (answers.size !== 1) throw new Error(`the wrong logins answered differently: ${[...answers.keys()]}`);
      const [unknown, warm, cold] = Object.values(times).map(median);
      return { label, unknown, warm, cold };
    };
    const rows = [await round(`${members.length} members`, 'a')];

    // Filler members, straight into the database (with their address -> id hints, as registration writes them).
    const { default: mongoose } = await import('mongoose');
    const conn = await mongoose.createConnection(env.MONGO_URL, { dbName }).asPromise();
    try {
      const now = new Date();
      for (let i = 0; i < filler; i += 1000) {
        const batch = Array.from({ length: Math.min(1000, filler - i) }, (_, j) =>
          storedMember(`filler-${tag}-${i + j}`, `filler-${tag}-${i + j}@example.com`, now),
        );
        await conn.collection('users').insertMany(batch);
        await conn.collection('user_email_ids').insertMany(batch.map((u) => ({ _id: u.email, userId: u._id })));
      }
    } finally {
      await conn.close();
    }
    rows.push(await round(`${members.length + filler} members`, 'b'));
    for (const r of rows)
      log(
        `${r.label}: median wrong login, unknown address ${r.unknown.toFixed(2)} ms vs member ${r.warm.toFixed(2)} ms (signed in before) / ${r.cold.toFixed(2)} ms (not since start): ${(r.unknown - Math.min(r.warm, r.cold)).toFixed(2)} to ${(r.unknown - Math.max(r.warm, r.cold)).toFixed(2)} ms apart`,
      );
    return rows;
  } finally {
    await stop();
  }
}
