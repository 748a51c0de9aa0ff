// The stack's CPU and memory as the kernel counts them (/proc), for `npm run load -- screens`: every process the run
// started for the stack (the load's FerretDB, MinIO and maildev, the stack's NATS, the five services, the gateway)
// and whatever they spawned (conversion workers: same process group), never the load generator (k6, this harness).
// CPU seconds per display-hour is how an operator sizes a machine (docs/scale.md); it is counted here from the
// processes' own counters rather than from their /metrics, so the Go servers count too and no scrape adds CPU.
// Also here: pinning those processes to one core and the load generator to another (taskset, util-linux).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The fields of /proc/<pid>/stat that matter here. The command name (field 2) is in parentheses and may hold spaces
 * and parentheses itself, so the fields are counted from the last ')'.
 */
export function parseStat(text) {
  const close = text.lastIndexOf(')');
  if (close < 0) throw new Error(`not a /proc/<pid>/stat line: ${text.slice(0, 80)}`);
  const f = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  // f[0] is field 3 (state): field n is f[n - 3]
  const n = (field) => Number(f[field - 3]);
  return {
    pid: Number(text.slice(0, text.indexOf(' '))),
    ppid: n(4),
    pgid: n(5),
    utime: n(14),
    stime: n(15),
    cutime: n(16),
    cstime: n(17),
    rssPages: n(24),
  };
}

/**
 * CPU ticks of each named process group, from the stat lines of every process: a live member's own time, plus the
 * leader's waited-for children (a worker that exited during the window moves from its own count to its leader's
 * cutime/cstime, so the total stays whole). `groups` maps a name to its process group id (the leader's pid: the stack
 * starts each process detached, in a group of its own). Resident pages: the group's sum.
 */
export function groupTicks(stats, groups) {
  const byPgid = new Map(Object.entries(groups).map(([name, pgid]) => [pgid, name]));
  const out = Object.fromEntries(Object.keys(groups).map((name) => [name, { ticks: 0, rssPages: 0, processes: 0 }]));
  for (const s of stats) {
    const name = byPgid.get(s.pgid);
    if (name === undefined) continue;
    const o = out[name];
    o.ticks += s.utime + s.stime + (s.pid === s.pgid ? s.cutime + s.cstime : 0);
    o.rssPages += s.rssPages;
    o.processes++;
  }
  return out;
}

/**
 * The window's CPU per process and in all: seconds used between two samples, and seconds per display-hour (the
 * seconds used divided by displays × the window's hours). Rounded for printing: 3 decimals.
 */
export function cpuPerDisplayHour({ before, after, ticksPerSecond, displays, seconds }) {
  const hours = seconds / 3600;
  const perProcess = {};
  let total = 0;
  for (const name of Object.keys(after)) {
    if (!before[name]) continue;
    const used = Math.max(0, after[name].ticks - before[name].ticks) / ticksPerSecond;
    total += used;
    perProcess[name] = {
      cpuS: round3(used),
      perDisplayHour: displays > 0 && hours > 0 ? round3(used / displays / hours) : null,
    };
  }
  return {
    windowS: round3(seconds),
    displays,
    cpuS: round3(total),
    perDisplayHour: displays > 0 && hours > 0 ? round3(total / displays / hours) : null,
    // the share of one core the stack used over the window
    coreShare: seconds > 0 ? round3(total / seconds) : null,
    perProcess,
  };
}

/**
 * The stack's CPU by phase of the run, from its total ticks sampled every few seconds (`timeline`: `{ at, ticks }`,
 * ms on the wall clock, in order; read between samples by straight lines): what each display's boot costs, what a
 * quiet fleet costs per display-hour, and what the edit, the takeover and the storm add. `marks` (ms): `start` (k6
 * starts the displays), `steady` (every display booted), `edit`, `takeover`, `storm` (0 or absent: none), `end`.
 * Quiet: the steady run less `afterMs` after the edit and after the takeover; each change's extra is its `afterMs`
 * less the quiet rate over the same time. Null where the timeline does not cover the phase.
 */
export function cpuByPhase({ timeline, ticksPerSecond, displays, marks, afterMs = 20_000 }) {
  const first = timeline[0];
  const last = timeline[timeline.length - 1];
  /** cumulative CPU seconds at `t` (null outside the timeline) */
  const at = (t) => {
    if (!first || !last || t < first.at || t > last.at) return null;
    let i = 1;
    while (i < timeline.length - 1 && timeline[i].at < t) i++;
    const a = timeline[i - 1];
    const b = timeline[i] ?? a;
    const ticks = b.at === a.at ? b.ticks : a.ticks + ((b.ticks - a.ticks) * (t - a.at)) / (b.at - a.at);
    return ticks / ticksPerSecond;
  };
  const used = (from, to) => {
    const a = at(from);
    const b = at(to);
    return a === null || b === null || to <= from ? null : b - a;
  };
  const steadyEnd = marks.storm || marks.end;
  const changes = [marks.edit, marks.takeover]
    .filter((t) => t && t >= marks.steady && t < steadyEnd)
    .map((t) => [t, Math.min(t + afterMs, steadyEnd)]);
  let quietS = 0;
  let quietCpu = 0;
  let from = marks.steady;
  for (const [a, b] of [...changes, [steadyEnd, steadyEnd]]) {
    if (a > from) {
      const u = used(from, a);
      if (u === null) return null;
      quietCpu += u;
      quietS += (a - from) / 1000;
    }
    from = Math.max(from, b);
  }
  const quietRate = quietS > 0 ? quietCpu / quietS : null;
  const perDisplayMs = (cpuS) => (cpuS === null || displays <= 0 ? null : round3((cpuS * 1000) / displays));
  const extra = (t) => {
    if (!t || quietRate === null || t < marks.steady || t >= steadyEnd) return null;
    const to = Math.min(t + afterMs, steadyEnd);
    const u = used(t, to);
    return u === null ? null : Math.max(0, u - (quietRate * (to - t)) / 1000);
  };
  const boot = used(marks.start, marks.steady);
  const storm = marks.storm ? used(marks.storm, marks.end) : null;
  const edit = extra(marks.edit);
  const takeover = extra(marks.takeover);
  return {
    bootCpuS: boot === null ? null : round3(boot),
    bootMsPerDisplay: perDisplayMs(boot),
    quietCoreShare: quietRate === null ? null : round3(quietRate),
    quietPerDisplayHour: quietRate === null || displays <= 0 ? null : round3((quietRate * 3600) / displays),
    editMsPerDisplay: perDisplayMs(edit),
    takeoverMsPerDisplay: perDisplayMs(takeover),
    stormCpuS: storm === null ? null : round3(storm),
    stormMsPerDisplay: perDisplayMs(storm),
  };
}

/** Resident KiB per connected display: (while connected − before) / displays, per process. */
export function kibPerDisplay({ before, during, pageBytes, displays }) {
  const out = {};
  for (const name of Object.keys(during)) {
    if (!before[name] || displays <= 0) continue;
    out[name] = Number((((during[name] - before[name]) * pageBytes) / 1024 / displays).toFixed(1));
  }
  return out;
}

/**
 * The gateway's memory per connected display, from two reads of its /debug/settled-memory (each the process's memory
 * before and after two full collections): before the displays connected and with all of them held. `rssKiB` (resident,
 * after the collection) and `liveKiB` (heap used + external: the objects and buffers still referenced) are what each
 * display keeps; the `uncollected` figures are the same moment before the collection (garbage and heap headroom, which
 * follow the traffic and the collector's timing, not the displays held). Per display held (`displays` when none).
 */
export function heldPerDisplay(before, held, displays) {
  if (!before?.after || !held?.after) return null;
  const n = held.deviceSockets > 0 ? held.deviceSockets : displays;
  if (!(n > 0)) return null;
  const kib = (a, b) => Number(((a - b) / 1024 / n).toFixed(1));
  const a = held.after;
  const b = before.after;
  return {
    sockets: held.deviceSockets,
    rssKiB: kib(a.rss, b.rss),
    liveKiB: kib(a.heapUsed + a.external, b.heapUsed + b.external),
    heapKiB: kib(a.heapUsed, b.heapUsed),
    externalKiB: kib(a.external, b.external),
    uncollectedRssKiB: kib(held.before.rss, before.before.rss),
    uncollectedHeapKiB: kib(held.before.heapUsed, before.before.heapUsed),
    // where the resident rise is: the V8 heap's resident pages, and the rest (buffers, malloc, code, stacks)
    heapResidentKiB: a.heapResident !== undefined ? kib(a.heapResident, b.heapResident) : null,
    outsideHeapKiB: a.heapResident !== undefined ? kib(a.rss - a.heapResident, b.rss - b.heapResident) : null,
    /** each V8 space after the collection with the displays held: resident / used, MiB */
    spacesMiB: held.spaces
      ? Object.fromEntries(
          Object.entries(held.spaces).map(([k, v]) => [
            k,
            `${(v.resident / 2 ** 20).toFixed(1)} / ${(v.used / 2 ** 20).toFixed(1)}`,
          ]),
        )
      : null,
    /** the two reads after their collection, MiB */
    mib: Object.fromEntries(
      Object.entries({ before: b, held: a }).map(([k, u]) => [
        k,
        Object.fromEntries(Object.entries(u).map(([f, v]) => [f, Number((v / 2 ** 20).toFixed(1))])),
      ]),
    ),
  };
}

const round3 = (v) => Number(v.toFixed(3));

/** Every process's stat line now (processes that ended between the listing and the read are left out). */
export function readStats() {
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      out.push(parseStat(readFileSync(`/proc/${entry}/stat`, 'utf8')));
    } catch {}
  }
  return out;
}

let clock = null;
/** The kernel's clock ticks per second (USER_HZ) and page size, once. */
export function kernelUnits() {
  clock ??= {
    ticksPerSecond: Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100,
    pageBytes: Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).trim()) || 4096,
  };
  return clock;
}

/** A sampler over named process groups: sample() reads them all at once (one pass over /proc). */
export function stackSampler(groups) {
  return { groups, sample: () => groupTicks(readStats(), groups) };
}

/**
 * The cores: stack on STACK_CPUS (default 0), load generator on LOAD_CPUS (default 1), unless PIN=0 or the machine
 * has a single core. Returns null when not pinned.
 */
export function pinning(env = process.env, cores = availableCores()) {
  if (env.PIN === '0') return null;
  if (cores < 2) return null;
  return { stack: env.STACK_CPUS || '0', load: env.LOAD_CPUS || '1' };
}

function availableCores() {
  try {
    return cpuList(execFileSync('taskset', ['-c', '-p', String(process.pid)], { encoding: 'utf8' }).split(':')[1])
      .length;
  } catch {
    return 1;
  }
}

/** '0-2,5' → [0, 1, 2, 5] */
export function cpuList(text) {
  const out = [];
  for (const part of text.trim().split(',').filter(Boolean)) {
    const [a, b] = part.split('-').map(Number);
    for (let c = a; c <= (b ?? a); c++) out.push(c);
  }
  return out;
}

/** A command run on `cpus` (taskset execs it: same pid), or as it is when cpus is null. */
export function onCores(cpus, command, args) {
  return cpus ? ['taskset', ['-c', cpus, command, ...args]] : [command, args];
}

/** Pins every thread of a running process to `cpus` (new threads and children inherit it). */
export function pinProcess(pid, cpus) {
  execFileSync('taskset', ['-a', '-c', '-p', cpus, String(pid)], { stdio: 'ignore' });
}

/** The cores a process may run on, as the kernel says (its Cpus_allowed_list). */
export function coresOf(pid) {
  try {
    return /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '?';
  } catch {
    return 'gone';
  }
}
