// Shared by the benchmarks.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** The p-th percentile (0..100) of ascending numbers, nearest rank. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A closed-loop run's figures: request count, latency percentiles (ms) and throughput over `seconds`. */
export function summarize(times, concurrency, seconds) {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    concurrency,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    rps: sorted.length / seconds,
  };
}

/** The fields of a /proc stat line after the command name (which may hold spaces and parentheses): [0] is the
 * state, [1] the parent pid, [11] and [12] user and system time in clock ticks (100 a second on Linux). */
function statFields(path) {
  const stat = readFileSync(path, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
const ticksToMs = (f) => (Number(f[11]) + Number(f[12])) * 10;

/** Every process now: pid, parent pid, CPU time so far (ms) and command line. */
function processes() {
  const procs = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const f = statFields(`/proc/${d}/stat`);
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
      procs.push({ pid: Number(d), ppid: Number(f[1]), cpu: ticksToMs(f), cmd });
    } catch {} // ended meanwhile
  }
  return procs;
}

/** CPU time (ms) used so far by the processes `match` picks and their descendants, read from Linux's /proc. */
export function processTree(match) {
  if (!existsSync('/proc/self/stat')) return Number.NaN; // not Linux: the figures print as '-'
  const procs = processes();
  const seen = new Set(procs.filter(match).map((p) => p.pid));
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs)
      if (!seen.has(p.pid) && seen.has(p.ppid)) {
        seen.add(p.pid);
        grew = true;
      }
  }
  return procs.filter((p) => seen.has(p.pid)).reduce((a, p) => a + p.cpu, 0);
}

/** CPU time (ms) used so far by each thread of process `pid`, summed by thread name (Linux's comm), from /proc. */
export function threadCpu(pid) {
  const byName = {};
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName; // not Linux, or the process has ended
  }
  for (const t of tasks) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${t}/comm`, 'utf8').trim();
      byName[name] = (byName[name] ?? 0) + ticksToMs(statFields(`/proc/${pid}/task/${t}/stat`));
    } catch {} // a thread that ended meanwhile
  }
  return byName;
}

/** The pids of the processes whose parent is `pid` (tsx, for one, runs a script in a child process of its own). */
export const childPids = (pid) =>
  processes()
    .filter((p) => p.ppid === pid)
    .map((p) => p.pid);
