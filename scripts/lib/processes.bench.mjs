// Start time and memory of every server process, run through tsx (TypeScript compiled at start, in a second process)
// and compiled (scripts/lib/compile.mjs: one bundle run by node), in the same run.
//
// For each way: a stack is started on its own port (test profile, same local servers), timed until every process
// answers /readyz; the memory of each process (with its children: tsx runs the script in a child of its own) is read
// at rest, then after a member journey repeated `journeys` times (register, verify, sign in, upload a PDF and wait for
// its pages, make a playlist of it, read every page image, list files, points and screens). Memory is PSS (shared
// pages divided among the processes that map them), so the sum is what the stack costs the machine.
import { readdirSync, readFileSync } from 'node:fs';
import { upload, verifiedSession } from '../../mf-player/bench/edit-latency.bench.mjs';
import { freePort } from './net.mjs';
import { startStack } from './stack.mjs';

/** PSS in MiB of a process and all its descendants (Linux). */
function treePss(pid) {
  const parents = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parents.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {} // ended meanwhile
  }
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [p, parent] of parents)
      if (!tree.has(p) && tree.has(parent)) {
        tree.add(p);
        grew = true;
      }
  }
  let kib = 0;
  for (const p of tree) {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'));
      kib += Number(m?.[1] ?? 0);
    } catch {}
  }
  return kib / 1024;
}

const memory = (stack) => Object.fromEntries(stack.processes.map((p) => [p.name, treePss(p.pid)]));

async function journey(baseUrl, mailUrl) {
  const { call, cookie } = await verifiedSession(baseUrl, mailUrl);
  const fileId = await upload(call, 'tracemonkey.pdf', 'Bench journey');
  const playlist = await call('POST', '/api/playlists', { name: 'Bench' });
  await call('POST', `/api/playlists/${playlist.id}/items`, { fileId, position: 0 });
  await call('GET', `/api/playlists/${playlist.id}/items`);
  const pages = await call('GET', `/api/files/${fileId}/pages`);
  for (const page of pages) {
    const r = await fetch(`${baseUrl}${page.imagePath}`, { headers: { cookie } });
    if (!r.ok) throw new Error(`GET ${page.imagePath}: ${r.status}`);
    await r.arrayBuffer();
  }
  await call('GET', '/api/files');
  await call('GET', '/api/points/summary');
  await call('GET', '/api/points/history');
  await call('GET', '/api/screens');
}

async function measureWay(runner, { journeys, say }) {
  const previous = process.env.PAGECAST_RUN;
  process.env.PAGECAST_RUN = runner;
  const port = await freePort();
  const t0 = performance.now();
  let stack;
  try {
    stack = await startStack({
      profile: 'test',
      port,
      quiet: true,
      build: false,
      env: { RATE_LIMIT_API_MAX: '10000000', LOG_LEVEL: 'warn' },
    });
  } finally {
    if (previous === undefined) delete process.env.PAGECAST_RUN;
    else process.env.PAGECAST_RUN = previous;
  }
  const readySeconds = (performance.now() - t0) / 1000;
  try {
    await new Promise((r) => setTimeout(r, 3000)); // let start-up garbage be collected and timers settle
    const atRest = memory(stack);
    const baseUrl = `http://127.0.0.1:${port}`;
    for (let i = 0; i < journeys; i++) await journey(baseUrl, stack.mailUrl);
    await new Promise((r) => setTimeout(r, 3000));
    const after = memory(stack);
    say(`${runner}: ready in ${readySeconds.toFixed(1)} s`);
    return { runner, readySeconds, atRest, after };
  } finally {
    await stack.stop();
  }
}

export async function benchProcesses({ journeys = Number(process.env.BENCH_JOURNEYS || 5), say = console.log } = {}) {
  // Compiled first, so its bundles exist; then tsx; then compiled again: the first start of each pays cold caches.
  const ways = [];
  for (const runner of ['node', 'tsx', 'node', 'tsx']) ways.push(await measureWay(runner, { journeys, say }));
  const best = (runner) => {
    const runs = ways.filter((w) => w.runner === runner);
    return { ...runs[runs.length - 1], readySeconds: Math.min(...runs.map((w) => w.readySeconds)) };
  };
  const tsx = best('tsx');
  const node = best('node');
  const names = Object.keys(node.atRest);
  const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0);
  const rows = [
    ...names.map((name) => ({
      process: name,
      'tsx at rest MiB': tsx.atRest[name].toFixed(1),
      'node at rest MiB': node.atRest[name].toFixed(1),
      'tsx after MiB': tsx.after[name].toFixed(1),
      'node after MiB': node.after[name].toFixed(1),
    })),
    {
      process: 'all',
      'tsx at rest MiB': sum(tsx.atRest).toFixed(1),
      'node at rest MiB': sum(node.atRest).toFixed(1),
      'tsx after MiB': sum(tsx.after).toFixed(1),
      'node after MiB': sum(node.after).toFixed(1),
    },
  ];
  return {
    rows,
    notes: [
      `ready (services and gateway, servers already up; best of two starts): tsx ${tsx.readySeconds.toFixed(1)} s, ` +
        `compiled ${node.readySeconds.toFixed(1)} s; after = after ${journeys} member journeys (PSS, children included)`,
    ],
  };
}
