// Production builds keep their source maps beside dist/, each under the name of the file it maps as that file is
// finally named, and only their own: in one fresh run mf-marketplace/sourcemaps/ held main.382….js.map beside
// dist/main.aad….js, because a second build of mf-marketplace (the e2e test of a team's own build, `rspack build -o
// <tmp>` with its own label and so its own hashes) wrote its maps into the front end's folder, clearing the first's.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Compiler, type Configuration, rspack } from '@rspack/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_MAPS_DIR, sourceMapsAsidePlugin } from '../src/plugins/source-maps-aside';

const RENAMED = 'main.0123456789.js';

/** A later step that gives the entry another name and leaves its map as it was. */
const renameEntryAfterMaps = {
  apply(compiler: Compiler) {
    compiler.hooks.thisCompilation.tap('RenameEntry', (compilation) => {
      const stage = rspack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_HASH + 1;
      compilation.hooks.processAssets.tap({ name: 'RenameEntry', stage }, () => {
        for (const asset of compilation.getAssets()) {
          if (/^main\.[0-9a-f]+\.js$/.test(asset.name) && asset.name !== RENAMED) {
            compilation.renameAsset(asset.name, RENAMED);
          }
        }
      });
    });
  },
};

/** A production build of the front end in `dir`, into `output` (its dist/ unless told), labelled like a remote. */
function build(dir: string, opts: { output?: string; label: string; plugins?: Configuration['plugins'] }) {
  const config: Configuration = {
    mode: 'production',
    context: dir,
    entry: { main: './src/index.js' },
    devtool: 'hidden-source-map',
    output: {
      path: opts.output ?? path.join(dir, 'dist'),
      filename: '[name].[contenthash:10].js',
      chunkFilename: '[name].[contenthash:10].js',
      clean: true,
    },
    plugins: [
      new rspack.DefinePlugin({ __LABEL__: JSON.stringify(opts.label) }),
      ...(opts.plugins ?? []),
      sourceMapsAsidePlugin(dir),
    ],
  };
  return new Promise<void>((resolve, reject) => {
    rspack(config).run((err, stats) => {
      if (err) reject(err);
      else if (stats?.hasErrors()) reject(new Error(stats.toString({ all: false, errors: true })));
      else resolve();
    });
  });
}

function frontEnd(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pagecast-maps-'));
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(path.join(dir, 'src', 'index.js'), "import('./chunk.js').then((m) => console.log(__LABEL__, m));\n");
  writeFileSync(path.join(dir, 'src', 'chunk.js'), 'export const answer = 42;\n');
  return dir;
}

const scripts = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.js'));
const mapsIn = (dir: string) => readdirSync(dir).sort();
const mapFile = (dir: string, name: string) =>
  (JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as { file: string }).file;

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('a build whose entry is renamed after its maps are written', () => {
  let dir: string;
  beforeAll(async () => {
    dir = frontEnd();
    made.push(dir);
    // a map from an earlier build, which a cleaning build removes
    mkdirSync(path.join(dir, SOURCE_MAPS_DIR));
    writeFileSync(path.join(dir, SOURCE_MAPS_DIR, 'main.ffffffffff.js.map'), '{}');
    await build(dir, { label: 'one', plugins: [renameEntryAfterMaps] });
  }, 60_000);

  it('keeps each map under its file as finally named, says that name inside, and leaves none in dist/', () => {
    const dist = path.join(dir, 'dist');
    expect(scripts(dist)).toContain(RENAMED);
    expect(scripts(dist).length).toBe(2); // the entry and its lazy chunk
    expect(readdirSync(dist).filter((f) => f.endsWith('.map'))).toEqual([]);
    const maps = path.join(dir, SOURCE_MAPS_DIR);
    expect(mapsIn(maps)).toEqual(
      scripts(dist)
        .map((f) => `${f}.map`)
        .sort(),
    );
    expect(mapFile(maps, `${RENAMED}.map`)).toBe(RENAMED);
    for (const file of scripts(dist)) {
      expect(readFileSync(path.join(dist, file), 'utf8'), file).not.toMatch(/[#@] sourceMappingURL=/);
    }
  });
});

describe('a second build of the same front end into another folder', () => {
  let dir: string;
  let elsewhere: string;
  beforeAll(async () => {
    dir = frontEnd();
    elsewhere = mkdtempSync(path.join(tmpdir(), 'pagecast-maps-team-'));
    made.push(dir, elsewhere, `${elsewhere}.${SOURCE_MAPS_DIR}`);
    await build(dir, { label: 'ours' });
    // another label, so other hashes: `rspack build -o <dir>` with PAGECAST_BUILD_LABEL set
    await build(dir, { label: 'the team', output: elsewhere });
  }, 60_000);

  it("leaves the front end's maps to its dist/, and keeps its own beside its own folder", () => {
    const dist = path.join(dir, 'dist');
    expect(mapsIn(path.join(dir, SOURCE_MAPS_DIR))).toEqual(
      scripts(dist)
        .map((f) => `${f}.map`)
        .sort(),
    );
    expect(mapsIn(`${elsewhere}.${SOURCE_MAPS_DIR}`)).toEqual(
      scripts(elsewhere)
        .map((f) => `${f}.map`)
        .sort(),
    );
    // the two builds differ (or this would prove nothing)
    expect(scripts(elsewhere).find((f) => f.startsWith('main.'))).not.toBe(
      scripts(dist).find((f) => f.startsWith('main.')),
    );
  });
});
