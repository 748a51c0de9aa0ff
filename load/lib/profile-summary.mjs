// Summarises the CPU profiles of a `LOAD_CPU_PROF=<dir> npm run load -- screens` run (docs/scale.md):
//   node load/lib/profile-summary.mjs <dir> [requests] [top]
// First every stack process's CPU over the steady run as the kernel counted it (<dir>/marks.json, written by
// scripts/load.mjs: from when every display has booted until the storm or k6's end; the Go servers too). Then for
// each Node process (the gateway and each service), busiest first, its V8 profile cut to that window (same monotonic
// clock): CPU per k6 request when `requests` is given, by module (our bundle, each npm package, Node's internals,
// GC), the top frames (`top`, default 15) by self and by inclusive time, named by their TypeScript source. Last,
// FerretDB's and k6's Go profiles over the same window (<dir>/ferretdb.pprof, k6.pprof): go tool pprof's top by self
// and cumulative time.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = process.argv[2];
// the k6 requests of the run (its summary), for the CPU per request; left out or empty: not printed
const requests = process.argv[3] ? Number(process.argv[3]) : Number.NaN;
const TOP = Number(process.argv[4] ?? 15);
if (!dir) {
  console.error('usage: node load/lib/profile-summary.mjs <dir> [requests] [top]');
  process.exit(2);
}
let marks = null;
try {
  marks = JSON.parse(readFileSync(join(dir, 'marks.json'), 'utf8'));
} catch {}

const which = (profile) => {
  const urls = profile.nodes.map((n) => n.callFrame.url);
  if (urls.some((u) => u.includes('/gateway/dist/main.mjs'))) return 'gateway';
  const svc = urls.map((u) => /\/services\/([a-z-]+)\/dist\/main\.mjs/.exec(u)?.[1]).find(Boolean);
  return svc ?? 'other';
};
const moduleOf = (frame) => {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:')) return 'node internals';
  if (url.includes('/dist/main.mjs')) return 'our code (bundle)';
  return url;
};
// frames of our bundles are named by their TypeScript source (the bundle's source map)
const maps = new Map();
const mapOf = (url) => {
  if (!maps.has(url)) {
    let map = null;
    try {
      const file = `${fileURLToPath(url)}.map`;
      if (existsSync(file)) map = new SourceMap(JSON.parse(readFileSync(file, 'utf8')));
    } catch {}
    maps.set(url, map);
  }
  return maps.get(url);
};
const name = (f) => {
  if (f.url.includes('/dist/main.mjs')) {
    const entry = mapOf(f.url)?.findEntry(f.lineNumber, f.columnNumber);
    if (entry?.originalSource) {
      const source = entry.originalSource.replace(/^.*?\/(services\/|gateway\/|packages\/)/, '$1');
      return `${f.functionName || entry.name || '(anonymous)'} ${source}:${entry.originalLine + 1}`;
    }
  }
  return `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules\/|dist\/)/, '$1')}:${f.lineNumber + 1}`;
};
const pct = (v, total) => `${((100 * v) / total).toFixed(1)} %`;

// the kernel's count per process over the run (all of the stack's processes, Go servers included)
if (marks?.cpu) {
  const c = marks.cpu;
  console.log(
    `## the stack's CPU over the steady run (/proc): ${c.cpuS} s in ${c.windowS} s for ${c.displays} displays, ` +
      `${c.perDisplayHour} CPU seconds per display-hour`,
  );
  for (const [name, p] of Object.entries(c.perProcess).sort((a, b) => b[1].cpuS - a[1].cpuS))
    console.log(
      `  ${name.padEnd(16)} ${String(p.cpuS).padStart(8)} s  ${pct(p.cpuS, c.cpuS).padStart(7)}  ${p.perDisplayHour} s per display-hour`,
    );
}

const summaries = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const proc = which(profile);
  if (proc === 'other') continue;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  const inclusive = new Map();
  const modules = new Map();
  let t = profile.startTime;
  let busy = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    const dt = profile.timeDeltas[i + 1] ?? 0;
    if (marks && (t < (marks.windowStartUs ?? marks.k6StartUs) || t > (marks.windowEndUs ?? marks.k6EndUs))) continue;
    const node = byId.get(profile.samples[i]);
    const fn = node.callFrame.functionName;
    if (fn === '(idle)') {
      idle += dt;
      continue;
    }
    busy += dt;
    const key = name(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + dt);
    const mod = moduleOf(node.callFrame);
    modules.set(mod, (modules.get(mod) ?? 0) + dt);
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id).callFrame;
      if (!f.url.includes('/dist/main.mjs') && !f.url.includes('node_modules')) continue;
      const k = name(f);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  }
  summaries.push({ proc, file, busy, idle, self, inclusive, modules });
}

const top = (m, n) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
for (const { proc, file, busy, idle, self, inclusive, modules } of summaries.sort((a, b) => b.busy - a.busy)) {
  const perRequest = Number.isFinite(requests) ? `, ${(busy / 1000 / requests).toFixed(3)} ms per k6 request` : '';
  console.log(`\n## ${proc} (${file})`);
  console.log(
    `CPU sampled ${marks ? 'over the steady run (the window of the CPU figures)' : 'over the whole process'}: ${(busy / 1e6).toFixed(1)} s busy, ` +
      `${(idle / 1e6).toFixed(1)} s idle${perRequest}`,
  );
  if (busy === 0) continue;
  console.log('\nby module (self time):');
  for (const [k, v] of top(modules, 10)) console.log(`  ${pct(v, busy).padStart(7)}  ${k}`);
  console.log('\ntop frames by self time:');
  for (const [k, v] of top(self, TOP)) console.log(`  ${pct(v, busy).padStart(7)}  ${k}`);
  console.log('\ntop frames by inclusive time (our bundle and npm packages):');
  for (const [k, v] of top(inclusive, TOP)) console.log(`  ${pct(v, busy).padStart(7)}  ${k}`);
}

// FerretDB and k6 (the load generator, on its own core): Go's profiles, read by go tool pprof (the Go toolchain is a
// prerequisite, README)
for (const name of ['ferretdb', 'k6']) {
  const pprof = join(dir, `${name}.pprof`);
  if (!existsSync(pprof)) continue;
  for (const order of [[], ['-cum']]) {
    console.log(`\n## ${name} (${name}.pprof), by ${order.length ? 'cumulative' : 'self'} time`);
    try {
      const out = execFileSync('go', ['tool', 'pprof', '-top', ...order, `-nodecount=${TOP}`, pprof], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      console.log(out.trimEnd());
    } catch (e) {
      console.log(`go tool pprof failed: ${e.message}`);
    }
  }
}
