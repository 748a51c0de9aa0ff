// Independent delivery of a remote: a team serves its own build of mf-marketplace from its own origin,
// and it goes live by switching /remotes.json (the gateway's REMOTES) — the shell is not rebuilt. Also the
// README's dev case: a remote's dev server used by the composed app on another site.
import { type ChildProcess, spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page, Response as PwResponse } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from './account-flows';
import { openPlayerBrowser, type PlayerBrowser, signedInMember, type Api } from './player-helpers';
import { watchAppearance } from './browser';

const bin = (name: string) => path.join(repoRoot, 'node_modules/.bin', name);
const TEAM_LABEL = 'mf_marketplace@team-host-v2';
const DEV_LABEL = 'mf_marketplace@dev-server';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A child in its own process group, so stopping it also ends what it started; its output kept for errors. */
function launch(cmd: string, args: string[], cwd: string, env: Record<string, string | undefined>) {
  const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout?.on('data', (d) => (output = (output + d).slice(-8000)));
  child.stderr?.on('data', (d) => (output = (output + d).slice(-8000)));
  return { child, output: () => output };
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    try {
      process.kill(-(child.pid as number), 'SIGTERM');
    } catch {
      resolve();
    }
  });
}

async function waitFor(url: string, what: string, output: () => string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (r.ok) return;
      last = `${r.status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${what} not ready at ${url} (${last}):\n${output()}`);
}

/** Another gateway in front of the same services as the test stack, with its own REMOTES. */
async function startGateway(port: number, publicUrl: string, remotes?: Record<string, string>) {
  const stackEnv = inject('stackEnv');
  if (!stackEnv)
    throw new Error('remote-origin.test.ts starts its own gateways: run it with the test stack, not E2E_BASE_URL');
  // its own internal listener: the default (9090) is the one a running `npm start` holds
  const internalPort = await freePort();
  const env = {
    ...process.env,
    ...stackEnv,
    PORT: String(port),
    INTERNAL_PORT: String(internalPort),
    PUBLIC_URL: publicUrl,
    REMOTES: undefined as string | undefined,
  };
  if (remotes) env.REMOTES = JSON.stringify(remotes);
  const gw = launch(bin('tsx'), ['src/main.ts'], path.join(repoRoot, 'gateway'), env);
  // readiness is on the internal listener (the public port answers any page path with the app)
  await waitFor(`http://127.0.0.1:${internalPort}/readyz`, 'gateway', gw.output, 60_000);
  return gw.child;
}

/** A team's own static host: the build's files with CORS, every request remembered. */
function staticHost(dir: string) {
  const types: Record<string, string> = { '.js': 'text/javascript', '.json': 'application/json', '.css': 'text/css' };
  const seen: Array<{ path: string; status: number }> = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const file = path.join(dir, path.normalize(url.pathname).replace(/^(\.\.[/\\])+/, ''));
    let status = 404;
    try {
      if (file.startsWith(dir) && statSync(file).isFile()) status = 200;
    } catch {}
    seen.push({ path: url.pathname, status });
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (status !== 200) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return { server, seen };
}

const shellScripts = (html: string) => [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]);

async function marketplaceBuild(page: Page): Promise<string | null> {
  const root = page.getByTestId('remote-mf_marketplace');
  await root.waitFor({ state: 'attached', timeout: 30_000 });
  await page.getByTestId('marketplace-page').waitFor({ timeout: 30_000 });
  return root.getAttribute('data-build');
}

let member: Api;
let buildDir: string;
let browser: PlayerBrowser | undefined;
const children: Array<ChildProcess | undefined> = [];
const servers: http.Server[] = [];

beforeAll(async () => {
  member = await signedInMember();
  // the team's build: the same source, its own version label, built to its own folder
  buildDir = mkdtempSync(path.join(tmpdir(), 'pagecast-mfm-v2-'));
  const build = launch(bin('rspack'), ['build', '-o', buildDir], path.join(repoRoot, 'mf-marketplace'), {
    ...process.env,
    NODE_ENV: 'production',
    PAGECAST_BUILD_LABEL: TEAM_LABEL,
  });
  const code = await new Promise<number | null>((r) => build.child.once('exit', r));
  if (code !== 0) throw new Error(`second build of mf-marketplace failed:\n${build.output()}`);
});

afterEach(async () => {
  await browser?.close();
  browser = undefined;
  await Promise.all(children.splice(0).map(stop));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

afterAll(() => {
  if (buildDir) rmSync(buildDir, { recursive: true, force: true });
  // its source maps, kept beside its folder (packages/federation: sourceMapsDirFor), not in mf-marketplace/sourcemaps
  if (buildDir) rmSync(`${buildDir}.sourcemaps`, { recursive: true, force: true });
});

async function browserAt(origin: string): Promise<PlayerBrowser> {
  const b = await openPlayerBrowser(null);
  const [name, value] = member.cookie.split('=') as [string, string];
  await b.context.addCookies([{ name, value, url: origin }]);
  return b;
}

describe('a remote delivered from its own origin', () => {
  it('goes live by switching /remotes.json to another host, without rebuilding the shell', async () => {
    const host = staticHost(buildDir);
    servers.push(host.server);
    await new Promise<void>((r) => host.server.listen(0, '127.0.0.1', r));
    const teamOrigin = `http://127.0.0.1:${(host.server.address() as net.AddressInfo).port}`;

    const port = await freePort();
    const app = `http://localhost:${port}`;
    let gateway = await startGateway(port, app);
    children.push(gateway);
    const shellBefore = shellScripts(await (await fetch(`${app}/marketplace`)).text());
    expect(shellBefore.length).toBeGreaterThan(0);

    browser = await browserAt(app);
    const { page } = browser;
    await page.goto(`${app}/marketplace`);
    const localVersion = JSON.parse(readFileSync(path.join(repoRoot, 'mf-marketplace/package.json'), 'utf8')).version;
    expect(await marketplaceBuild(page)).toBe(`mf_marketplace@${localVersion}`);
    expect(host.seen).toEqual([]);

    // the switch: the same gateway port, now told that mf_marketplace lives on the team's host
    await stop(gateway);
    gateway = await startGateway(port, app, { mf_marketplace: `${teamOrigin}/mf-manifest.json` });
    children.push(gateway);
    const remotes = (await (await fetch(`${app}/remotes.json`)).json()) as Record<string, string>;
    expect(remotes.mf_marketplace).toBe(`${teamOrigin}/mf-manifest.json`);
    expect(remotes.mf_files).toBe('/remotes/files/mf-manifest.lean.json');
    const page2 = await fetch(`${app}/marketplace`);
    expect(page2.headers.get('content-security-policy')).toMatch(new RegExp(`script-src [^;]*${teamOrigin}`));
    expect(shellScripts(await page2.text())).toEqual(shellBefore); // the very same shell build

    const failed: string[] = [];
    page.on('response', (r: PwResponse) => {
      if (r.url().startsWith(teamOrigin) && r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.reload();
    expect(await marketplaceBuild(page)).toBe(TEAM_LABEL);
    expect(failed).toEqual([]);
    const served = host.seen.filter((s) => s.status === 200).map((s) => s.path);
    expect(served).toContain('/mf-manifest.json');
    expect(served).toContain('/remoteEntry.js');
    expect(served.filter((p) => /\.[0-9a-f]{10}\.js$/.test(p)).length).toBeGreaterThan(0); // its chunks too
    // the other remotes still come from the gateway
    await page.getByTestId('brand').click();
    const appeared = await watchAppearance(page, 'remote-mf_files');
    await page.evaluate(() => {
      history.pushState({}, '', '/files');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await appeared();
  });

  it("uses a remote's dev server from another site: chunks answer 200, not 403", async () => {
    const devPort = await freePort();
    const dev = launch(bin('rspack'), ['serve', '--port', String(devPort)], path.join(repoRoot, 'mf-marketplace'), {
      ...process.env,
      NODE_ENV: 'development',
      PAGECAST_BUILD_LABEL: DEV_LABEL,
    });
    children.push(dev.child);
    const devOrigin = `http://localhost:${devPort}`;
    await waitFor(`${devOrigin}/mf-manifest.json`, 'mf-marketplace dev server', dev.output);

    // the app on 127.0.0.1 and the dev server on localhost: another site, as a team's machine or a LAN name is
    const port = await freePort();
    const app = `http://127.0.0.1:${port}`;
    children.push(await startGateway(port, app, { mf_marketplace: `${devOrigin}/mf-manifest.json` }));

    browser = await browserAt(app);
    const { page } = browser;
    const fromDev: Array<{ url: string; status: number }> = [];
    page.on('response', (r: PwResponse) => {
      if (r.url().startsWith(devOrigin)) fromDev.push({ url: r.url(), status: r.status() });
    });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('requestfailed', (r) => problems.push(`failed ${r.url()} ${r.failure()?.errorText}`));
    await page.goto(`${app}/marketplace`);
    const build = await marketplaceBuild(page).catch((e: Error) => {
      throw new Error(`${e.message}\n${JSON.stringify({ problems, fromDev }, null, 1)}\n${dev.output()}`);
    });
    expect(build).toBe(DEV_LABEL);
    expect(fromDev.filter((r) => r.status >= 400)).toEqual([]);
    expect(fromDev.some((r) => r.url.endsWith('/remoteEntry.js'))).toBe(true);
    expect(fromDev.filter((r) => r.url.endsWith('.js')).length).toBeGreaterThan(1);
  });
});
