// load/lib/stack-cpu.mjs: the CPU seconds per display-hour an operator sizes a machine by, and the memory per
// display, counted from /proc for the stack's processes only (npm run load -- screens).
import { spawn } from 'node:child_process';
import { createHash, createPublicKey } from 'node:crypto';
import { fileURLToPath } from 'node:url';
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
  cpuByPhase(o: {
    timeline: { at: number; ticks: number }[];
    ticksPerSecond: number;
    displays: number;
    marks: { start: number; steady: number; edit?: number; takeover?: number; storm?: number; end: number };
    afterMs?: number;
  }): Record<string, number | null> | null;
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

  it("splits the stack's CPU into each display's boot, the quiet fleet, and what the edit, the takeover and the storm add", () => {
    // a core's share at each second: the boot (0-20 s) a whole core, then half, the edit (60 s) a whole one for 20 s,
    // the takeover (100 s) 0.7 for 20 s, the storm (140-160 s) a whole core; sampled every 5 s, 100 ticks a second
    const rate = (t: number) => (t < 20 ? 1 : t >= 60 && t < 80 ? 1 : t >= 100 && t < 120 ? 0.7 : t >= 140 ? 1 : 0.5);
    const timeline: { at: number; ticks: number }[] = [];
    let ticks = 0;
    for (let t = 0; t <= 160; t++) {
      if (t % 5 === 0) timeline.push({ at: 1_000_000 + t * 1000, ticks });
      ticks += rate(t) * 100;
    }
    const marks = (at: number) => 1_000_000 + at * 1000;
    const phases = lib.cpuByPhase({
      timeline,
      ticksPerSecond: 100,
      displays: 100,
      marks: {
        start: marks(0),
        steady: marks(20),
        edit: marks(60),
        takeover: marks(100),
        storm: marks(140),
        end: marks(160),
      },
    });
    expect(phases).toEqual({
      bootCpuS: 20,
      bootMsPerDisplay: 200,
      quietCoreShare: 0.5,
      quietPerDisplayHour: 18,
      editMsPerDisplay: 100,
      takeoverMsPerDisplay: 40,
      stormCpuS: 20,
      stormMsPerDisplay: 200,
    });
    // a timeline that starts after the boot: no figure for it, the rest still given
    const late = lib.cpuByPhase({
      timeline: timeline.filter((p) => p.at >= marks(10)),
      ticksPerSecond: 100,
      displays: 100,
      marks: { start: marks(0), steady: marks(20), end: marks(160) },
    });
    expect(late?.bootMsPerDisplay).toBeNull();
    // no change named: the whole steady run is quiet (20-60 s half, the edit's 20 s whole, 80-100 half, 0.7, half, whole)
    expect(late?.quietCoreShare).toBeCloseTo((40 * 0.5 + 20 + 20 * 0.5 + 14 + 20 * 0.5 + 20) / 140, 3);
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

// load/lib/play-signing.js: the load's displays sign their play batches as mf-player's display page does, so the
// screens service's signature check is in the load's CPU figures. Checked against the page's own sender and the
// verifier's code (what the service runs), on node's WebCrypto.
type Play = { id: string; fileId: string; page: number; startedAt: string; seconds: number };
type Jwk = { kty: string; crv: string; x: string; y?: string };
type Key = { keyId: string; alg: 'ES256'; jwk: Jwk; privateKey: CryptoKey };
type Body = {
  plays: Play[];
  signed?: { key: string; seq: number; prev: string; sentAt: string; signature: string };
};
// @ts-expect-error: a plain ES module of the load, without types
const signing = (await import('../../load/lib/play-signing.js')) as {
  utf8(text: string): Uint8Array;
  b64url(bytes: ArrayBuffer | Uint8Array): string;
  fromB64url(text: string): Uint8Array;
  fullLength(coordinate: string, size?: number): string;
  makeDisplayKey(subtle: SubtleCrypto): Promise<Key>;
  makeStoredDisplayKey(subtle: SubtleCrypto): Promise<{ jwk: Key['jwk']; d: string }>;
  importDisplayKey(subtle: SubtleCrypto, stored: { jwk: Key['jwk']; d: string }): Promise<Key>;
  signBatch(
    subtle: SubtleCrypto,
    key: Key,
    after: { seq: number; hash: string },
    plays: Play[],
    sentAt: string,
    codec?: Codec,
  ): Promise<{ body: Body; hash: string }>;
};
type Codec = {
  digest(text: string): string | Promise<string>;
  utf8(text: string): Uint8Array;
  b64url(bytes: ArrayBuffer | Uint8Array): string;
};
const { sha256, verifyBatchSignature } = await import('@pagecast/verify');
const { batchText, recordText, thumbprintText } = await import('@pagecast/verify/canonical');
// the page's own modules, by a path the type check does not follow (they belong to mf-player's build)
const playerModel = fileURLToPath(new URL('../../mf-player/src/features/display/model', import.meta.url));
const { createPlaySender } = (await import(/* @vite-ignore */ `${playerModel}/play-sender.ts`)) as {
  createPlaySender(deps: unknown): { flush(): Promise<string> };
};
const { createPlayLog } = (await import(/* @vite-ignore */ `${playerModel}/play-log.ts`)) as {
  createPlayLog(storage: unknown): { add(record: Play): void };
};
const { memoryKeyStore } = (await import(/* @vite-ignore */ `${playerModel}/display-keys.ts`)) as {
  memoryKeyStore(): { put(name: string, key: unknown): Promise<void> };
};

const subtle = globalThis.crypto.subtle;
/** The text the service checks a batch's signature over (services/screens domain/play-signature.ts, signedTextOf). */
const serviceText = (body: Body) => {
  const s = body.signed as NonNullable<Body['signed']>;
  return batchText({ ...s, records: body.plays.map((p) => sha256(recordText(p))) });
};
const play = (n: number, extra: Partial<Play> = {}): Play => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  fileId: '6f1c2a9e-3b47-4d1a-9c55-0a2b3c4d5e6f',
  page: n,
  startedAt: new Date(1_765_000_000_000 + n * 5000).toISOString(),
  seconds: 5,
  ...extra,
});

/** The page's sender with the load's key as its current key, sending to a list; flushed once per batch given. */
async function pageSends(key: Key, batches: Play[][], sentAt: string) {
  const map = new Map<string, string>();
  const storage = {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
  const log = createPlayLog(storage);
  const keys = memoryKeyStore();
  await keys.put('current', { ...key, screenId: 'screen-1' });
  const sent: Body[] = [];
  const sender = createPlaySender({
    log,
    storage,
    keys,
    subtle,
    screenId: 'screen-1',
    send: async (body: Body) => {
      sent.push(body);
      return {};
    },
    registerKey: async () => ({ keyId: key.keyId, head: { seq: 0, hash: '' } }),
    now: () => Date.parse(sentAt),
  });
  for (const plays of batches) {
    for (const p of plays) log.add(p);
    expect(await sender.flush()).toBe('done');
  }
  return sent;
}

describe("the load's signed play batches (load/lib/play-signing.js)", () => {
  it('encodes as the page does: UTF-8 beyond ASCII, base64url without padding', () => {
    for (const text of ['', 'a', 'ab', 'abc', 'héllo ✓ 𝄞', '日本語のページ']) {
      expect(Buffer.from(signing.utf8(text)).equals(Buffer.from(text, 'utf8'))).toBe(true);
      const bytes = new Uint8Array(Buffer.from(text, 'utf8'));
      expect(signing.b64url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
    }
  });

  it("writes a coordinate k6's JWK export shortened back at its full 32 bytes: the same point, the length the contract asks", () => {
    // a public key as k6 v1.8.1 exported it: x lost its leading zero byte
    const k6 = {
      kty: 'EC',
      crv: 'P-256',
      x: 'ysdcLEzQ7sy_dDl0vF2ftnFi3oYUVG72B8FbqEAUwg',
      y: 'C-0Q7oMybg8vxAVUmkYKMsndR6rUK4MHEIrL0DWW3vI',
    };
    const x = signing.fullLength(k6.x);
    expect(x).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(x, 'base64url')).toEqual(Buffer.concat([Buffer.from([0]), Buffer.from(k6.x, 'base64url')]));
    expect(signing.fullLength(k6.y)).toBe(k6.y);
    // the same point: node takes it whole (as the service's usableKey does)
    const point = createPublicKey({ key: { ...k6, x }, format: 'jwk' }).export({ format: 'jwk' });
    expect(point).toMatchObject({ x, y: k6.y });
    for (const text of ['', 'AA', 'AAE', 'ysdcLEzQ7sy_dDl0vF2ftnFi3oYUVG72B8FbqEAUwg']) {
      expect(Buffer.from(signing.fromB64url(text))).toEqual(Buffer.from(text, 'base64url'));
    }
  });

  it("names its ECDSA P-256 key by the thumbprint the service and the verifier compute, from the public JWK's members only", async () => {
    const key = await signing.makeDisplayKey(subtle);
    expect(key.alg).toBe('ES256');
    expect(Object.keys(key.jwk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect(key.jwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
    expect(key.keyId).toBe(sha256(thumbprintText(key.jwk)));
    expect(key.privateKey.extractable).toBe(false);
  });

  it("signs the text the page's sender signs, which the service's check verifies, and chains as the page does", async () => {
    const key = await signing.makeDisplayKey(subtle);
    const sentAt = '2025-12-06T05:46:50.000Z';
    const first = [play(1), play(2)];
    const second = [play(3), play(4, { page: 2 }), play(5, { fileId: 'ab-é' })];
    const page = await pageSends(key, [first, second], sentAt);
    expect(page).toHaveLength(2);
    const [pageOne, pageTwo] = page as [Body, Body];

    const one = await signing.signBatch(subtle, key, { seq: 0, hash: '' }, first, sentAt);
    const two = await signing.signBatch(subtle, key, { seq: 1, hash: one.hash }, second, sentAt);
    for (const [load, theirs] of [
      [one, pageOne],
      [two, pageTwo],
    ] as const) {
      // the same body but the signature (ECDSA draws a new nonce each time): the same signed text, both verified
      const { signature, ...header } = load.body.signed as NonNullable<Body['signed']>;
      const { signature: pageSignature, ...pageHeader } = theirs.signed as NonNullable<Body['signed']>;
      expect(load.body.plays).toEqual(theirs.plays);
      expect(header).toEqual(pageHeader);
      expect(serviceText(load.body)).toBe(serviceText(theirs));
      expect(verifyBatchSignature('ES256', key.jwk, serviceText(load.body), signature)).toBe(true);
      expect(verifyBatchSignature('ES256', key.jwk, serviceText(theirs), pageSignature)).toBe(true);
      expect(signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
      expect(load.hash).toBe(sha256(serviceText(load.body)));
    }
    expect(two.body.signed).toMatchObject({ key: key.keyId, seq: 2, prev: one.hash });
    expect(one.body.signed).toMatchObject({ seq: 1, prev: '' });
  });

  it("signs the same with a host's own encoders as with its plain ones (k6 passes Go's: the generator's CPU)", async () => {
    const key = await signing.makeDisplayKey(subtle);
    const calls = { digest: 0, utf8: 0, b64url: 0 };
    // node's, as k6's are Go's: each counted, so a signer that ignored them would fail here
    const host: Codec = {
      digest: (text) => {
        calls.digest++;
        return createHash('sha256').update(text, 'utf8').digest('base64url');
      },
      utf8: (text) => {
        calls.utf8++;
        return new Uint8Array(Buffer.from(text, 'utf8'));
      },
      b64url: (bytes) => {
        calls.b64url++;
        return Buffer.from(bytes as ArrayBuffer).toString('base64url');
      },
    };
    const plays = [play(1), play(2, { fileId: 'ab-é' })];
    const sentAt = '2025-12-06T05:46:50.000Z';
    const plain = await signing.signBatch(subtle, key, { seq: 3, hash: 'h3' }, plays, sentAt);
    const native = await signing.signBatch(subtle, key, { seq: 3, hash: 'h3' }, plays, sentAt, host);
    expect(calls).toEqual({ digest: 3, utf8: 1, b64url: 1 });
    expect(native.hash).toBe(plain.hash);
    expect(serviceText(native.body)).toBe(serviceText(plain.body));
    expect(
      verifyBatchSignature('ES256', key.jwk, serviceText(native.body), native.body.signed?.signature as string),
    ).toBe(true);
  });

  it('keeps a key made at pairing (the screens file) and signs with it once imported, as one made at boot', async () => {
    const stored = await signing.makeStoredDisplayKey(subtle);
    expect(Object.keys(stored.jwk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect(stored.d).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const key = await signing.importDisplayKey(subtle, stored);
    expect(key.jwk).toEqual(stored.jwk);
    expect(key.keyId).toBe(sha256(thumbprintText(stored.jwk)));
    expect(key.privateKey.extractable).toBe(false);
    const { body } = await signing.signBatch(subtle, key, { seq: 0, hash: '' }, [play(1)], '2025-12-06T05:46:50.000Z');
    expect(verifyBatchSignature('ES256', stored.jwk, serviceText(body), body.signed?.signature as string)).toBe(true);
    const other = await signing.makeStoredDisplayKey(subtle);
    expect(verifyBatchSignature('ES256', other.jwk, serviceText(body), body.signed?.signature as string)).toBe(false);
  });

  it('is refused by the check for a record changed after signing, or by another key', async () => {
    const key = await signing.makeDisplayKey(subtle);
    const other = await signing.makeDisplayKey(subtle);
    const { body } = await signing.signBatch(subtle, key, { seq: 0, hash: '' }, [play(1)], '2025-12-06T05:46:50.000Z');
    const signature = body.signed?.signature as string;
    const altered = { ...body, plays: [{ ...play(1), seconds: 6 }] };
    expect(verifyBatchSignature('ES256', key.jwk, serviceText(altered), signature)).toBe(false);
    expect(verifyBatchSignature('ES256', other.jwk, serviceText(body), signature)).toBe(false);
  });
});
