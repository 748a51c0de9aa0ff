// No source maps published: the front ends' production builds keep their maps out of what is
// served (packages/federation writes them to <front end>/sourcemaps/) and name none in their code, and the gateway
// answers 404 to any *.map under its static roots all the same. The second part reads the real builds, which
// `npm test` makes first (`node scripts/build.mjs` otherwise).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../src/server';
import { createKeys, makeStaticTree, startFakeAccount, startGateway } from './support';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const frontEnds = ['shell', 'mf-files', 'mf-marketplace', 'mf-player'];

let account: Awaited<ReturnType<typeof startFakeAccount>>;
let tree: ReturnType<typeof makeStaticTree>;
/** on a stand-in build holding stray maps */
let stray: { gateway: Gateway; url: string };
/** on the real builds (STATIC_DIR and REMOTES_DIR by default) */
let built: { gateway: Gateway; url: string };

beforeAll(async () => {
  account = await startFakeAccount(await createKeys());
  tree = makeStaticTree();
  const write = (rel: string) => fs.writeFileSync(path.join(tree.root, rel), '{"version":3,"sources":["secret.ts"]}');
  write('shell/dist/main.3f9a1c2e.js.map');
  write('mf-files/dist/static/js/412.a1b2c3d4.js.map');
  write('mf-files/dist/remoteEntry.js.map');
  stray = await startGateway({ ACCOUNT_URL: account.url, STATIC_DIR: tree.staticDir, REMOTES_DIR: tree.root });
  built = await startGateway({ ACCOUNT_URL: account.url });
});

afterAll(async () => {
  await Promise.all([stray?.gateway.close(), built?.gateway.close()]);
  await account?.close();
  tree?.cleanup();
});

function* files(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(file);
    else yield file;
  }
}

/** The text a browser would get: the file, or its brotli copy's content. */
const served = (file: string) =>
  file.endsWith('.br') ? zlib.brotliDecompressSync(fs.readFileSync(file)).toString() : fs.readFileSync(file, 'utf8');

describe('the gateway serves no source map', () => {
  it('answers 404 to a map under the shell or a remote, however the path is written, and still serves the code', async () => {
    for (const p of [
      '/main.3f9a1c2e.js.map',
      '/main.3f9a1c2e.js%2Emap',
      '/main.3f9a1c2e.js.MAP',
      '/remotes/files/remoteEntry.js.map',
      '/remotes/files/static/js/412.a1b2c3d4.js.map',
      '/remotes/files/static/js/../js/412.a1b2c3d4.js%2emap',
      '/remotes/player/remoteEntry.js.map', // a remote that is not built
    ]) {
      for (const method of ['GET', 'HEAD']) {
        const res = await fetch(`${stray.url}${p}`, { method });
        expect(res.status, `${method} ${p}`).toBe(404);
        if (method === 'GET') expect(await res.text(), p).not.toContain('secret.ts');
      }
    }
    expect((await fetch(`${stray.url}/main.3f9a1c2e.js`)).status).toBe(200);
    expect((await fetch(`${stray.url}/remotes/files/static/js/412.a1b2c3d4.js`)).status).toBe(200);
  });
});

describe('the production builds of the front ends', () => {
  for (const fe of frontEnds) {
    it(`${fe}: no map in dist/, no sourceMappingURL in what is served, the maps kept beside it`, () => {
      const dist = path.join(repoRoot, fe, 'dist');
      expect(fs.existsSync(dist), `${fe} is not built: run node scripts/build.mjs`).toBe(true);
      const all = [...files(dist)];
      expect(all.filter((f) => /\.map(\.br)?$/i.test(f))).toEqual([]);
      const code = all.filter((f) => /\.(js|css|html|json)(\.br)?$/.test(f));
      expect(code.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(0);
      for (const file of code) expect(served(file), file).not.toMatch(/[#@] sourceMappingURL=/);
      // kept for reading error reports, each under the name of the file it maps as finally named (a step after the
      // maps are written may rename a file: packages/federation, source-maps-aside.ts): the entry and the containers
      const maps = path.join(repoRoot, fe, 'sourcemaps');
      const named = fs.readdirSync(dist).filter((f) => /^(main\.[0-9a-f]+|remoteEntry\b.*)\.js$/.test(f));
      expect(
        named.some((f) => f.startsWith('main.')),
        `${fe}: an entry`,
      ).toBe(true);
      for (const script of named) {
        expect(fs.existsSync(path.join(maps, `${script}.map`)), `${fe}/sourcemaps/${script}.map`).toBe(true);
      }
      // and no map under a name no file of the build has
      const kept = [...files(maps)].map((f) => path.relative(maps, f));
      expect(kept.filter((m) => !fs.existsSync(path.join(dist, m.replace(/\.map$/, ''))))).toEqual([]);
    });
  }

  it('through the gateway: the scripts come without a map comment, and their maps are 404', async () => {
    const page = await (await fetch(`${built.url}/files`, { headers: { accept: 'text/html' } })).text();
    const main = /src="\/(main\.[0-9a-f]+\.js)"/.exec(page)?.[1];
    expect(main, 'the shell page names its entry').toBeDefined();
    const scripts = [
      `/${main}`,
      ...frontEnds.slice(1).flatMap((fe) => {
        const short = fe === 'mf-files' ? 'files' : fe === 'mf-marketplace' ? 'marketplace' : 'player';
        return [`/remotes/${short}/remoteEntry.js`, `/remotes/${short}/remoteEntry.lean.js`];
      }),
    ];
    for (const script of scripts) {
      for (const encoding of ['identity', 'br']) {
        const res = await fetch(`${built.url}${script}`, { headers: { 'accept-encoding': encoding } });
        expect(res.status, script).toBe(200);
        expect(await res.text(), script).not.toMatch(/[#@] sourceMappingURL=/);
      }
      expect((await fetch(`${built.url}${script}.map`)).status, `${script}.map`).toBe(404);
    }
  });
});
