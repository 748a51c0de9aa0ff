// load/lib/stack-cpu.mjs: the CPU seconds per display-hour an operator sizes a machine by, and the memory per
// display, counted from /proc for the stack's processes only (npm run load -- screens).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

type Ticks = Record<string, { ticks: number; rssPages: number; processes: number }>;
type Stat = {
  pid: number;
  ppid: number;
  pgid: number;
  utime: number;
  stime: number;
  cutime: number;
  cstime: number;
  rssPages: number;
};
type Usage = {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  heapResident: number;
  external: number;
  arrayBuffers: number;
};
/** The gateway's /debug/settled-memory answer. */
type Settled = { before: Usage; after: Usage; deviceSockets: number };
// @ts-expect-error: a plain ES module of the load, without types
const lib = (await import('../../load/lib/stack-cpu.mjs')) as {
  parseStat(text: string): Stat;
  groupTicks(stats: Stat[], groups: Record<string, number>): Ticks;
  cpuPerDisplayHour(o: { before: Ticks; after: Ticks; ticksPerSecond: number; displays: number; seconds: number }): {
    cpuS: number;
    perDisplayHour: number | null;
    coreShare: number | null;
    perProcess: Record<string, { cpuS: number; perDisplayHour: number | null }>;
  };
  kibPerDisplay(o: {
    before: Record<string, number>;
    during: Record<string, number>;
    pageBytes: number;
    displays: number;
  }): Record<string, number>;
  heldPerDisplay(
    before: Settled | null,
    held: Settled | null,
    displays: number,
  ): {
    sockets: number;
    rssKiB: number;
    liveKiB: number;
    heapKiB: number;
    externalKiB: number;
    uncollectedRssKiB: number;
    uncollectedHeapKiB: number;
    heapResidentKiB: number | null;
    outsideHeapKiB: number | null;
    mib: Record<'before' | 'held', Record<string, number>>;
  } | null;
  pinning(env: Record<string, string | undefined>, cores: number): { stack: string; load: string } | null;
  cpuList(text: string): number[];
  readStats(): Stat[];
  stackSampler(groups: Record<string, number>): { sample(): Ticks };
};

/** A stat line as the kernel writes it (fields 1-24; the rest are not read). */
const statLine = (o: { pid: number; comm: string; ppid: number; pgid: number; u: number; s: number; cu?: number }) =>
  `${o.pid} (${o.comm}) S ${o.ppid} ${o.pgid} ${o.pgid} 0 -1 4194560 100 0 0 0 ${o.u} ${o.s} ${o.cu ?? 0} 0 20 0 ` +
  '11 0 12345 1000000 2500 18446744073709551615';

describe('CPU per display-hour from /proc', () => {
  it('reads a stat line whose command name holds spaces and parentheses', () => {
    const s = lib.parseStat(statLine({ pid: 42, comm: 'node (gw) x', ppid: 1, pgid: 42, u: 700, s: 300, cu: 50 }));
    expect(s).toMatchObject({ pid: 42, ppid: 1, pgid: 42, utime: 700, stime: 300, cutime: 50, rssPages: 2500 });
  });

  it("sums each group's members, adds only the leader's reaped children, and leaves other processes out", () => {
    const stats = [
      statLine({ pid: 10, comm: 'node', ppid: 1, pgid: 10, u: 100, s: 50, cu: 30 }),
      statLine({ pid: 11, comm: 'worker', ppid: 10, pgid: 10, u: 20, s: 5, cu: 999 }),
      statLine({ pid: 20, comm: 'nats-server', ppid: 1, pgid: 20, u: 7, s: 3 }),
      statLine({ pid: 30, comm: 'k6', ppid: 1, pgid: 30, u: 5000, s: 5000 }),
    ].map(lib.parseStat);
    const out = lib.groupTicks(stats, { gateway: 10, nats: 20 });
    // the worker's own 25, never its cutime; the leader's 150 plus its reaped 30
    expect(out.gateway).toEqual({ ticks: 205, rssPages: 5000, processes: 2 });
    expect(out.nats?.ticks).toBe(10);
    expect(Object.keys(out)).toEqual(['gateway', 'nats']);
  });

  it('divides the window by displays × hours, per process and in all', () => {
    const before = {
      gateway: { ticks: 1000, rssPages: 0, processes: 1 },
      ferretdb: { ticks: 0, rssPages: 0, processes: 1 },
    };
    const after = {
      gateway: { ticks: 1000 + 60 * 100, rssPages: 0, processes: 1 },
      ferretdb: { ticks: 30 * 100, rssPages: 0, processes: 1 },
    };
    // 90 s of CPU in 300 s for 1,000 displays: 90 / 1000 / (300/3600) = 1.08 s per display-hour
    const cpu = lib.cpuPerDisplayHour({ before, after, ticksPerSecond: 100, displays: 1000, seconds: 300 });
    expect(cpu.cpuS).toBe(90);
    expect(cpu.perDisplayHour).toBe(1.08);
    expect(cpu.coreShare).toBe(0.3);
    expect(cpu.perProcess.gateway).toEqual({ cpuS: 60, perDisplayHour: 0.72 });
    expect(cpu.perProcess.ferretdb).toEqual({ cpuS: 30, perDisplayHour: 0.36 });
  });

  it('gives the resident rise per display in KiB', () => {
    // 8,000 more pages of 4 KiB for 1,000 displays: 32 KiB each
    const kib = lib.kibPerDisplay({
      before: { gateway: 20_000 },
      during: { gateway: 28_000 },
      pageBytes: 4096,
      displays: 1000,
    });
    expect(kib).toEqual({ gateway: 32 });
  });

  it("gives what each held display keeps at the gateway after a full collection, not the moment's garbage", () => {
    const MiB = 1024 * 1024;
    const usage = (rss: number, heapUsed: number, external: number) => ({
      rss: rss * MiB,
      heapUsed: heapUsed * MiB,
      heapTotal: 2 * heapUsed * MiB,
      heapResident: heapUsed * MiB + 10 * MiB,
      external: external * MiB,
      arrayBuffers: 0,
    });
    // 1,000 displays: 10 MiB more resident and 8 + 2 MiB more live after the collection; before it, 150 MiB more
    // resident (the traffic's garbage and the heap's headroom), which is not counted as theirs
    const before = { before: usage(200, 60, 20), after: usage(180, 50, 20), deviceSockets: 0 };
    const held = { before: usage(350, 160, 22), after: usage(190, 58, 22), deviceSockets: 1000 };
    expect(lib.heldPerDisplay(before, held, 1000)).toMatchObject({
      sockets: 1000,
      rssKiB: 10.2,
      liveKiB: 10.2,
      heapKiB: 8.2,
      externalKiB: 2,
      uncollectedRssKiB: 153.6,
      uncollectedHeapKiB: 102.4,
      // of the 10 MiB resident rise, 8 in the heap's pages and 2 outside it
      heapResidentKiB: 8.2,
      outsideHeapKiB: 2,
    });
    expect(lib.heldPerDisplay(before, held, 1000)?.mib.held).toMatchObject({ rss: 190, heapResident: 68 });
    // per display held: 500 sockets of 1,000 displays share the same rise, twice as much each
    expect(lib.heldPerDisplay(before, { ...held, deviceSockets: 500 }, 1000)?.rssKiB).toBe(20.5);
    // a gateway without --expose-gc (no route) or an unread sample: not measured
    expect(lib.heldPerDisplay(null, held, 1000)).toBeNull();
    expect(lib.heldPerDisplay(before, null, 1000)).toBeNull();
  });

  it("counts a real process's CPU as the process itself does, and nothing once it is gone", async () => {
    // burns 0.4 s of CPU (by its own count, however busy the machine is), says how much it used, then idles
    const burn =
      'const s = process.cpuUsage(); for (;;) { const u = process.cpuUsage(s); if (u.user + u.system >= 400000) break; }' +
      ' const u = process.cpuUsage(); process.stdout.write(String((u.user + u.system) / 1e6)); setTimeout(() => {}, 10000);';
    const child = spawn(process.execPath, ['-e', burn], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const own = Number(await new Promise<string>((resolve) => child.stdout?.once('data', (d) => resolve(String(d)))));
    const sampler = lib.stackSampler({ burner: child.pid as number });
    const counted = (sampler.sample().burner?.ticks ?? 0) / 100;
    expect(own).toBeGreaterThanOrEqual(0.4);
    // the kernel's ticks are 10 ms; the process read its own count a moment before the sample
    expect(Math.abs(counted - own)).toBeLessThanOrEqual(0.05);
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
    expect(sampler.sample().burner).toEqual({ ticks: 0, rssPages: 0, processes: 0 });
  });
});

describe('pinning', () => {
  it('puts the stack on core 0 and the load on core 1, unless PIN=0 or one core', () => {
    expect(lib.pinning({}, 2)).toEqual({ stack: '0', load: '1' });
    expect(lib.pinning({ PIN: '0' }, 2)).toBeNull();
    expect(lib.pinning({}, 1)).toBeNull();
    expect(lib.pinning({ STACK_CPUS: '0-1', LOAD_CPUS: '2-3' }, 4)).toEqual({ stack: '0-1', load: '2-3' });
  });

  it('reads a kernel CPU list', () => {
    expect(lib.cpuList('0-2,5\n')).toEqual([0, 1, 2, 5]);
    expect(lib.cpuList('1')).toEqual([1]);
  });
});

// @ts-expect-error: a plain ES module of the load, without types
const { goals } = (await import('../../load/lib/goals.mjs')) as {
  goals(f: Record<string, unknown>): Record<string, boolean | null>;
};

describe("the run's goals", () => {
  const passing = {
    screens: 10_000,
    calls: { heartbeat: { p95: 40 }, plays: { p95: 99.9 }, 'fleet-health': { p95: 450 } },
    errors: { requests: 0, checksFailed: 0, socketDrops: 0 },
    takeover: { shown: 10_000, p95Ms: 1999 },
    edit: { shown: 10_000, p95Ms: 4999 },
    storm: { allS: 60 },
    gatewayHeld: { sockets: 10_000, rssKiB: 32, liveKiB: 32 },
    // the peak resident rise over the run (garbage and caches included) is printed, not judged
    kibPerScreen: { gateway: 140 },
  };

  it('passes at the limits, the operator page left out of the p95s', () => {
    expect(Object.values(goals(passing)).every((v) => v === true)).toBe(true);
  });

  it('fails each goal on its own figure: one slow call, one drop, a display never reached, never all playing', () => {
    const g = goals({
      ...passing,
      calls: { ...passing.calls, images: { p95: 100 } },
      errors: { requests: 0, checksFailed: 0, socketDrops: 1 },
      takeover: { shown: 9_999, p95Ms: 10 },
      storm: { allS: null },
      gatewayHeld: { sockets: 10_000, rssKiB: 12, liveKiB: 32.1 },
    });
    expect(g).toEqual({
      everyP95Under100ms: false,
      noError: false,
      takeoverP95Under2s: false,
      editP95Under5s: true,
      stormAllPlayingWithin60s: false,
      gatewayAtMost32KiBPerDisplay: false,
    });
  });

  it('judges memory per display on both held figures and on every display connected', () => {
    const held = (h: object) => goals({ ...passing, gatewayHeld: { ...passing.gatewayHeld, ...h } });
    expect(held({ rssKiB: 32.1 }).gatewayAtMost32KiBPerDisplay).toBe(false);
    expect(held({ liveKiB: 32.1 }).gatewayAtMost32KiBPerDisplay).toBe(false);
    // the figure was read with displays missing: it does not speak for the whole fleet
    expect(held({ sockets: 9_000 }).gatewayAtMost32KiBPerDisplay).toBe(false);
  });

  it('says n/a (null) for what the run did not measure', () => {
    expect(goals({ screens: 5 })).toEqual({
      everyP95Under100ms: null,
      noError: null,
      takeoverP95Under2s: null,
      editP95Under5s: null,
      stormAllPlayingWithin60s: null,
      gatewayAtMost32KiBPerDisplay: null,
    });
  });
});
