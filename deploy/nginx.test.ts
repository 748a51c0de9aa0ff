// The front-end images' nginx configuration, run by a real nginx (Debian's) against a stand-in build: hashed files
// are cached for good, entry points are revalidated, remotes answer cross-origin requests, the shell falls back to
// index.html for app routes only.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../scripts/lib/net.mjs';
import { debian, ensureDebianPackages } from '../scripts/lib/tools.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const IMMUTABLE = 'public, max-age=31536000, immutable';

let work = '';
let nginx: ChildProcess | undefined;
let remote = '';
let shell = '';

beforeAll(async () => {
  await ensureDebianPackages(debian.test);
  work = mkdtempSync(join(tmpdir(), 'pagecast-nginx-'));
  chmodSync(work, 0o755); // nginx workers run as an unprivileged user when the master is root
  const html = join(work, 'html');
  mkdirSync(join(work, 'conf.d'), { recursive: true });
  mkdirSync(html);
  const files: Record<string, string> = {
    'index.html': '<!doctype html><title>shell</title>',
    'mf-manifest.json': '{"name":"mf_files"}',
    'remoteEntry.js': '/* entry */',
    'mf-manifest.lean.json': '{"name":"mf_files"}',
    'remoteEntry.lean.js': '/* lean entry */',
    'main.3f9a1c2e.js': '/* hashed */',
    'routes.0a1b2c3d4e5f.css': '/* hashed css */',
    // a source map that should not be in an image at all (packages/federation keeps them out of dist/)
    'main.3f9a1c2e.js.map': '{"version":3,"sources":["secret.ts"]}',
  };
  for (const [name, body] of Object.entries(files)) writeFileSync(join(html, name), body);

  const [remotePort, shellPort] = [await freePort(), await freePort()];
  const main = readFileSync(join(here, 'nginx/nginx.conf'), 'utf8').replace(
    '/etc/nginx/conf.d/*.conf',
    `${work}/conf.d/*.conf`,
  );
  expect(main).toContain(`${work}/conf.d/*.conf`);
  writeFileSync(join(work, 'nginx.conf'), main);
  const site = (file: string, port: number) =>
    readFileSync(join(here, 'nginx', file), 'utf8')
      .replace('listen 8080;', `listen 127.0.0.1:${port};`)
      .replace('root /usr/share/nginx/html;', `root ${html};`);
  writeFileSync(join(work, 'conf.d/remote.conf'), site('remote.conf', remotePort));
  writeFileSync(join(work, 'conf.d/shell.conf'), site('shell.conf', shellPort));

  // A file, not a pipe: node's pipes are sockets, which nginx cannot open as /dev/stderr (containers give it a pipe).
  const log = join(work, 'nginx.log');
  const out = openSync(log, 'a');
  nginx = spawn('/usr/sbin/nginx', ['-p', work, '-c', join(work, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const stderr = () => readFileSync(log, 'utf8');
  remote = `http://127.0.0.1:${remotePort}`;
  shell = `http://127.0.0.1:${shellPort}`;
  for (let i = 0; ; i++) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited ${nginx.exitCode}: ${stderr()}`);
    try {
      if ((await fetch(`${remote}/healthz`)).ok && (await fetch(`${shell}/healthz`)).ok) break;
    } catch {
      if (i > 100) throw new Error(`nginx did not answer: ${stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
});

afterAll(async () => {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((r) => nginx?.once('exit', r));
    nginx.kill('SIGTERM');
    await exited;
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('remote image (deploy/nginx/remote.conf)', () => {
  it('revalidates the manifest and the remote entry, caches hashed files forever', async () => {
    for (const path of [
      '/mf-manifest.json',
      '/remoteEntry.js',
      '/mf-manifest.lean.json',
      '/remoteEntry.lean.js',
      '/index.html',
    ]) {
      const r = await fetch(remote + path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('cache-control'), path).toBe('no-cache');
    }
    for (const path of ['/main.3f9a1c2e.js', '/routes.0a1b2c3d4e5f.css']) {
      const r = await fetch(remote + path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('cache-control'), path).toBe(IMMUTABLE);
    }
    expect((await fetch(`${remote}/main.3f9a1c2e.js`)).headers.get('content-type')).toMatch(/javascript/);
  });

  it('lets the shell on another origin fetch the manifest and chunks (CORS, preflight)', async () => {
    const r = await fetch(`${remote}/mf-manifest.json`, { headers: { Origin: 'http://localhost:8080' } });
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(await r.json()).toEqual({ name: 'mf_files' });
    const pre = await fetch(`${remote}/main.3f9a1c2e.js`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:8080', 'Access-Control-Request-Method': 'GET' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('answers 404 for a missing file rather than some other file', async () => {
    const r = await fetch(`${remote}/does-not-exist.js`);
    expect(r.status).toBe(404);
    expect(r.headers.get('cache-control')).toBe('no-cache');
  });
});

describe('both images', () => {
  it('never serve a source map, however the path is written', async () => {
    for (const base of [remote, shell]) {
      for (const path of ['/main.3f9a1c2e.js.map', '/main.3f9a1c2e.js%2Emap', '/main.3f9a1c2e.js.MAP']) {
        const r = await fetch(base + path);
        expect(r.status, base + path).toBe(404);
        expect(await r.text(), base + path).not.toContain('secret.ts');
      }
      expect((await fetch(`${base}/main.3f9a1c2e.js`)).status, base).toBe(200);
    }
  });
});

describe('shell image (deploy/nginx/shell.conf)', () => {
  it('serves index.html, revalidated, for app routes', async () => {
    for (const path of ['/', '/files/abc123', '/signage/xyz']) {
      const r = await fetch(shell + path);
      expect(r.status, path).toBe(200);
      expect(await r.text(), path).toContain('<title>shell</title>');
      expect(r.headers.get('cache-control'), path).toBe('no-cache');
    }
  });

  it('gives a 404 for a missing asset and caches hashed assets forever', async () => {
    expect((await fetch(`${shell}/missing.3f9a1c2e.js`)).status).toBe(404);
    const r = await fetch(`${shell}/main.3f9a1c2e.js`);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe(IMMUTABLE);
  });
});
