// Compiles each service and the gateway to one JavaScript file, run by plain `node`.
//
// Why esbuild: a process's own TypeScript and the workspace packages it imports (@pagecast/*, whose package.json
// points at TypeScript sources) must become JavaScript, while npm dependencies stay as installed (native addons such
// as argon2 and sharp cannot be bundled, and Node loads the rest faster from node_modules than from a bundle it must
// parse whole). esbuild does exactly that in one call, in about 0.1 s per process; tsc emits file by file and keeps the
// workspace imports pointing at .ts sources (Node would need a loader again), and rolldown/tsup add nothing here.
// Types are not checked here: `npm test` runs `tsc -b`.
//
// Output: <workspace>/dist/main.mjs (+ .map), beside copies of the non-TypeScript files the code opens relative to
// itself (a worker thread's script, MuPDF's and LibreOffice's helper scripts): `new URL('./x', import.meta.url)` in a
// source under src/ then finds x next to the bundle. Nothing else of the sources is read at run time, so an image
// holds the bundle and the production node_modules only.
//
// Alone (the images' build stage): `node scripts/lib/compile.mjs services/account [...]`; ESBUILD_PATH names an
// esbuild installed elsewhere when the repository's dev dependencies are not installed.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { withLock } from './lock.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The processes `npm start` runs: each services/* and the gateway. */
export function serverWorkspaces() {
  const services = readdirSync(join(root, 'services'))
    .filter((name) => existsSync(join(root, 'services', name, 'src/main.ts')))
    .map((name) => `services/${name}`);
  return [...services, 'gateway'];
}

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

/** Files under src/ that the code opens by path at run time (not imported): copied beside the bundle. */
function assetsOf(workspace) {
  return [...walk(join(root, workspace, 'src'))].filter(
    (file) => /\.(mjs|cjs|js|py)$/.test(file) && !/\.test\./.test(file),
  );
}

/** Keeps npm packages external; bundles our own workspace packages (TypeScript sources). */
const externalPackages = {
  name: 'external-npm-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@pagecast/') || args.path.startsWith('node:')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * Compiles one workspace. Skips the work when the bundle is newer than every source it came from (esbuild's
 * metafile lists them), so a warm `npm start` pays a few stat calls.
 */
export async function compileWorkspace(workspace, { force = false } = {}) {
  const outDir = join(root, workspace, 'dist');
  const outFile = join(outDir, 'main.mjs');
  const metaFile = join(outDir, 'main.meta.json');
  if (!force && upToDate(outFile, metaFile, workspace)) return { workspace, outFile, compiled: false };
  const { build } = await import(process.env.ESBUILD_PATH ? pathToFileURL(process.env.ESBUILD_PATH).href : 'esbuild');
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(workspace, 'src/main.ts')],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    sourcemap: 'linked',
    // Names kept: stack traces and logs name functions as in the sources.
    keepNames: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [externalPackages],
  });
  const seen = new Map();
  for (const asset of assetsOf(workspace)) {
    const name = basename(asset);
    if (seen.has(name)) throw new Error(`${workspace}: two run-time files named ${name}: ${seen.get(name)}, ${asset}`);
    seen.set(name, asset);
    copyFileSync(asset, join(outDir, name));
  }
  writeFileSync(metaFile, JSON.stringify(Object.keys(result.metafile.inputs).concat([...seen.values()])));
  return { workspace, outFile, compiled: true };
}

function upToDate(outFile, metaFile, workspace) {
  if (!existsSync(outFile) || !existsSync(metaFile)) return false;
  const built = statSync(outFile).mtimeMs;
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(metaFile, 'utf8'));
  } catch {
    return false;
  }
  // A new asset or entry file is not in the old list: compare the list of assets too.
  const assets = assetsOf(workspace);
  if (assets.some((a) => !inputs.includes(a))) return false;
  return inputs.every((input) => {
    const path = input.startsWith('/') ? input : join(root, input);
    const s = statSync(path, { throwIfNoEntry: false });
    return s !== undefined && s.mtimeMs <= built;
  });
}

/** Compiles every server process (in parallel: esbuild runs them on its own threads). */
export async function compileServers({ force = false, say = () => {} } = {}) {
  const started = Date.now();
  // one compile at a time across processes: two would write the same dist/main.mjs together
  const results = await withLock(
    'server-bundles',
    () => Promise.all(serverWorkspaces().map((w) => compileWorkspace(w, { force }))),
    { onWait: (pid) => say(`waiting for another compile of the servers (pid ${pid ?? '?'}) to finish ...`) },
  );
  const compiled = results.filter((r) => r.compiled).map((r) => r.workspace);
  say(
    compiled.length === 0
      ? 'server bundles up to date'
      : `compiled ${compiled.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return results;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const workspaces = process.argv.slice(2);
  for (const workspace of workspaces.length > 0 ? workspaces : serverWorkspaces()) {
    const { outFile } = await compileWorkspace(workspace, { force: true });
    process.stdout.write(`[compile] ${workspace} -> ${outFile}\n`);
  }
}
