// Can the answer to a registration tell whether the address already has an account? Starts the account service as
// its own process (tsx src/main.ts) against the test servers, registers `attempts` members, then registers, one at a
// time and taking turns in a random order each turn:
//   - a new address (an account is made)
//   - a member's address as it was registered
//   - a member's address upper-cased (the same address)
// and prints the median answer time of each, their ratio, and the answers (status and body, the address aside).
// Figures only: it never fails on time, only when the answers differ (unless `allowDifferentAnswers`, to measure
// a build that still refused a taken address).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { percentile } from '../../../scripts/lib/stats.mjs';
import { startAccount } from './account-process.mjs';

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

export async function benchRegisterTiming({ log = console.log, attempts = 200, allowDifferentAnswers = false } = {}) {
  const { base, stop } = await startAccount({ dbPrefix: 'account_register_bench', timeoutMs: 60_000 });
  try {
    const password = 'register bench password';
    const tag = randomBytes(4).toString('hex');
    const post = (body) =>
      fetch(`${base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ firstName: 'Bench', lastName: 'Mark', password, ...body }),
      });
    const memberEmail = (i) => `register-${tag}-member-${i}@example.com`;
    for (let i = 0; i < attempts; i += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, attempts - i) }, async (_, j) => {
          const res = await post({ email: memberEmail(i + j) });
          if (!res.ok) throw new Error(`register answered ${res.status}`);
        }),
      );
    }
    const attempt = async (email) => {
      const t0 = performance.now();
      const res = await post({ email });
      const body = (await res.text()).replaceAll(email.toLowerCase(), '<address>');
      return { ms: performance.now() - t0, answer: `${res.status} ${body}` };
    };
    // a few unmeasured ones first (V8 compiles both paths)
    for (let i = 0; i < 10; i++) {
      await attempt(`register-${tag}-warmup-${i}@example.com`);
      await attempt(memberEmail(i));
    }
    const kinds = {
      'new address': (i) => `register-${tag}-new-${i}@example.com`,
      "a member's address": (i) => memberEmail(i),
      "a member's address, upper-cased": (i) => memberEmail(i).toUpperCase(),
    };
    const times = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
    const answers = Object.fromEntries(Object.keys(kinds).map((k) => [k, new Map()]));
    for (let i = 0; i < attempts; i++) {
      // in a new order each turn: whatever one leaves behind (a collection, a background mail) falls on each alike
      for (const [kind, emailAt] of shuffled(Object.entries(kinds))) {
        const { ms, answer } = await attempt(emailAt(i));
        times[kind].push(ms);
        answers[kind].set(answer, (answers[kind].get(answer) ?? 0) + 1);
      }
    }
    const rows = Object.entries(times).map(([kind, xs]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return { label: kind, median: median(xs), p95: percentile(sorted, 95), count: xs.length };
    });
    for (const r of rows)
      log(`${r.label.padEnd(34)} median ${r.median.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms (${r.count})`);
    for (const [kind, seen] of Object.entries(answers))
      log(`  answers, ${kind}: ${[...seen].map(([a, n]) => `${n} x ${a}`).join('; ')}`);
    const [fresh, taken, upper] = rows;
    log(
      `median taken/new: ${(taken.median / fresh.median).toFixed(3)} (as registered), ` +
        `${(upper.median / fresh.median).toFixed(3)} (upper-cased)`,
    );
    const distinct = new Set(Object.values(answers).flatMap((m) => [...m.keys()]));
    if (distinct.size !== 1 && !allowDifferentAnswers)
      throw new Error(`the registrations answered differently: ${[...distinct].join(' | ')}`);
    return rows;
  } finally {
    await stop();
  }
}
