// Builds the front ends when their sources changed since the last build (a content hash is kept in dist/).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root } from './infra.mjs';
import { withLock } from './lock.mjs';

export const frontEnds = ['mf-files', 'mf-marketplace', 'mf-player', 'shell'];
// Workspace packages whose sources end up in every front-end bundle.
const sharedInputs = ['packages/ui', 'packages/i18n', 'packages/router', 'packages/federation', 'packages/contracts'];

function* walk(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    // what builds write (dist/, and sourcemaps/ beside it: packages/federation) is not a source
    if (name === 'node_modules' || name === 'dist' || name === 'sourcemaps' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* walk(p);
    else yield p;
  }
}

function sourceHash(ws) {
  const h = createHash('sha256');
  for (const dir of [ws, ...sharedInputs]) {
    const files = [...walk(join(root, dir))].filter((f) => !/\.test\.tsx?$/.test(f)).sort();
    for (const f of files) h.update(relative(root, f)).update(readFileSync(f));
  }
  h.update(readFileSync(join(root, 'package-lock.json')));
  return h.digest('hex');
}

const stampFile = (ws) => join(root, ws, 'dist', '.build-stamp');

export function isFresh(ws) {
  return existsSync(stampFile(ws)) && readFileSync(stampFile(ws), 'utf8') === sourceHash(ws);
}

/** The workspace's own `npm run build` (rspack; the shell then writes its prerendered visitor pages). */
function run(ws) {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'build'], {
      cwd: join(root, ws),
      env: { ...process.env, NODE_ENV: 'production', PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`npm run build of ${ws} failed:\n${out.slice(-6000)}`)),
    );
  });
}

/** Builds what is missing or stale, one at a time (two cores), printing progress. */
export async function buildFrontEnds({ force = false, log = (m) => process.stdout.write(`[build] ${m}\n`) } = {}) {
  // two starts (or a start beside a test run) would otherwise write the same dist/ together
  return withLock('front-ends', () => buildUnlocked({ force, log }), {
    onWait: (pid) => log(`waiting for another build of the front ends (pid ${pid ?? '?'}) to finish ...`),
  });
}

async function buildUnlocked({ force, log }) {
  const todo = frontEnds.filter((ws) => force || !isFresh(ws));
  if (todo.length === 0) {
    log('front ends are up to date');
    return;
  }
  for (const [i, ws] of todo.entries()) {
    const t0 = Date.now();
    log(`(${i + 1}/${todo.length}) building ${ws} ...`);
    const hash = sourceHash(ws);
    await run(ws);
    writeFileSync(stampFile(ws), hash);
    log(`(${i + 1}/${todo.length}) ${ws} built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
}
