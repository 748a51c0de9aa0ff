// Entry point of `npm start`, `npm test`, `npm run bench`, `npm run load` and `npm run seed`. Written for any Node >= 18 because on a
// fresh clone it runs on the system Node: it installs the workspace (which brings Node 24 as the `node` dev
// dependency) and then hands over to the real script on that Node.
'use strict';
const { spawnSync, spawn } = require('node:child_process');
const { createHash } = require('node:crypto');
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const [cmd, ...args] = process.argv.slice(2);
const scripts = { start: 'start.mjs', test: 'test.mjs', bench: 'bench.mjs', load: 'load.mjs', seed: 'seed.mjs' };
if (!scripts[cmd]) {
  console.error(`usage: bootstrap.cjs <${Object.keys(scripts).join('|')}>`);
  process.exit(2);
}

const lock = join(root, 'package-lock.json');
const stamp = join(root, 'node_modules', '.pagecast-install-stamp');
const want = createHash('sha256')
  .update(readFileSync(lock))
  .update(readFileSync(join(root, 'package.json')))
  .digest('hex');
const node24 = join(root, 'node_modules', 'node', 'bin', 'node');
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== want || !existsSync(node24)) {
  console.log('[setup] installing npm dependencies (npm ci; about a minute on a fresh clone) ...');
  const t0 = Date.now();
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('[setup] npm ci failed: check the network access to the npm registry and run it again.');
    process.exit(r.status || 1);
  }
  writeFileSync(stamp, want);
  console.log(`[setup] npm dependencies installed in ${Math.round((Date.now() - t0) / 1000)} s`);
}

// node_modules/.bin first on PATH, so every `#!/usr/bin/env node` tool below also runs on Node 24.
const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}` };
const child = spawn(node24, [join(root, 'scripts', scripts[cmd]), ...args], { cwd: root, stdio: 'inherit', env });
// The real script handles signals itself (it stops what it started); forward them and wait for its exit.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
