import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Compiler, rspack } from '@rspack/core';

/**
 * Where a production build keeps its source maps, beside dist/ (`<front end>/sourcemaps/<file>.map`): for reading an
 * error report's stack, never served. The gateway and the nginx images serve dist/ only; the maps published every
 * source file of the app.
 */
export const SOURCE_MAPS_DIR = 'sourcemaps';

interface AssetLike {
  name: string;
  info: { related?: { sourceMap?: string | string[] | null } | null };
  source: { buffer(): Buffer };
}

/** The map's bytes with its `file` naming `file` (the name of what it maps). */
function namingFile(bytes: Buffer, file: string): Buffer {
  const map = JSON.parse(bytes.toString('utf8')) as { file?: string };
  if (map.file === undefined || map.file === file) return bytes;
  return Buffer.from(JSON.stringify({ ...map, file }));
}

/**
 * The build's source maps by the name each is kept under: `<file>.map` after the file it maps as that file is named
 * now (its `related.sourceMap` says which map is its own), whatever name the map was written under. A step after
 * the maps are written may rename the file (realContentHash gives the entry its final hash after the maps exist, and
 * renames the map with it; a step that did not would leave the map under the older name). A map no file claims keeps
 * its name.
 */
export function mapsByFinalName(assets: readonly AssetLike[]): Map<string, Buffer> {
  const byName = new Map(assets.map((a) => [a.name, a]));
  const kept = new Map<string, Buffer>();
  const claimed = new Set<string>();
  for (const asset of assets) {
    const own = asset.info.related?.sourceMap;
    const mapName = Array.isArray(own) ? own.find((m) => byName.has(m)) : own;
    const map = mapName ? byName.get(mapName) : undefined;
    if (!mapName || !map || asset.name.endsWith('.map')) continue;
    claimed.add(mapName);
    kept.set(`${asset.name}.map`, namingFile(map.source.buffer(), path.posix.basename(asset.name)));
  }
  for (const asset of assets) {
    if (asset.name.endsWith('.map') && !claimed.has(asset.name)) kept.set(asset.name, asset.source.buffer());
  }
  return kept;
}

/**
 * Where a build keeps its maps: `<front end>/sourcemaps/` for its dist/, and beside any other output folder
 * (`rspack build -o <dir>`: `<dir>.sourcemaps/`). A second build of the front end elsewhere (the e2e test of a
 * team's own build, with its own build label and so its own hashes) wrote into the front end's folder, which a build
 * that cleans its output clears first: the maps of dist/ were replaced by that build's (main.382….js.map beside
 * main.aad….js).
 */
export function sourceMapsDirFor(frontEndDir: string, outputPath: string): string {
  const output = path.resolve(outputPath);
  return output === path.resolve(frontEndDir, 'dist')
    ? path.resolve(frontEndDir, SOURCE_MAPS_DIR)
    : `${output}.${SOURCE_MAPS_DIR}`;
}

/**
 * Moves the build's source maps out of its output (mapsByFinalName) into sourceMapsDirFor(). With
 * 'hidden-source-map' the code names no map; the maps are taken once every other step is done (after the brotli
 * copies, which skip them anyway). A build that cleans its output (the full one) clears the folder first; the lean
 * one, built after it into the same dist/, adds its own.
 */
export const sourceMapsAsidePlugin = (frontEndDir: string) => ({
  apply(compiler: Compiler) {
    const name = 'PagecastSourceMapsAside';
    const maps = new Map<string, Buffer>();
    compiler.hooks.thisCompilation.tap(name, (compilation) => {
      compilation.hooks.processAssets.tap({ name, stage: rspack.Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const assets = compilation.getAssets();
        for (const [file, bytes] of mapsByFinalName(assets)) maps.set(file, bytes);
        for (const asset of assets) if (asset.name.endsWith('.map')) compilation.deleteAsset(asset.name);
      });
    });
    compiler.hooks.afterEmit.tapPromise(name, async () => {
      const dir = sourceMapsDirFor(frontEndDir, compiler.options.output.path ?? path.join(frontEndDir, 'dist'));
      if (compiler.options.output.clean) await rm(dir, { recursive: true, force: true });
      for (const [file, bytes] of maps) {
        const target = path.join(dir, file);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, bytes);
      }
      maps.clear();
    });
  },
});
