// The one Module Federation policy of Pagecast (docs/platform.md, "Front end composition") and the rspack
// configurations built on it, so that every front end's rspack.config.ts is a few lines.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { type Compilation, type Compiler, type Configuration, rspack } from '@rspack/core';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function readPackageJson(dir: string): PackageJson {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** Shared singletons: package → the package.json whose version it takes (subpaths take their parent's). */
export const sharedSingletons: ReadonlyArray<{ key: string; pkg: string }> = [
  { key: 'react', pkg: 'react' },
  { key: 'react/jsx-runtime', pkg: 'react' },
  { key: 'react/jsx-dev-runtime', pkg: 'react' },
  { key: 'react-dom', pkg: 'react-dom' },
  { key: 'react-dom/client', pkg: 'react-dom' },
  { key: '@pagecast/router', pkg: '@pagecast/router' },
  { key: '@tanstack/react-query', pkg: '@tanstack/react-query' },
  { key: 'i18next', pkg: 'i18next' },
  { key: '@pagecast/ui', pkg: '@pagecast/ui' },
  { key: '@pagecast/i18n', pkg: '@pagecast/i18n' },
];

/** Workspace packages: their version comes from their own package.json (dependents say "*"). */
const workspaceDirs: Record<string, string> = {
  '@pagecast/ui': path.join(repoRoot, 'packages/ui'),
  '@pagecast/i18n': path.join(repoRoot, 'packages/i18n'),
  '@pagecast/router': path.join(repoRoot, 'packages/router'),
};

export interface SharedEntry {
  singleton: true;
  requiredVersion: string;
  version?: string;
}

/**
 * The shared map for one front end: every singleton with requiredVersion from that front end's package.json
 * (exact pins there, so host and remotes must agree), workspace packages at ^their version.
 */
export function sharedPolicy(appDir: string): Record<string, SharedEntry> {
  const app = readPackageJson(appDir);
  const deps = { ...app.devDependencies, ...app.dependencies };
  const shared: Record<string, SharedEntry> = {};
  for (const { key, pkg } of sharedSingletons) {
    const workspaceDir = workspaceDirs[pkg];
    if (workspaceDir) {
      const { version } = readPackageJson(workspaceDir);
      shared[key] = { singleton: true, requiredVersion: `^${version}`, version };
      continue;
    }
    const wanted = deps[pkg];
    if (!wanted) throw new Error(`${app.name}: shared singleton ${pkg} is missing from package.json dependencies`);
    shared[key] = { singleton: true, requiredVersion: wanted };
  }
  return shared;
}

export interface FrontEndOptions {
  /** the front end's folder (where package.json and src/ live) */
  dir: string;
  /** dev server port (docs/platform.md: shell 3000, mf-files 3001, mf-marketplace 3002, mf-player 3003) */
  port: number;
  /** page title of the standalone/host HTML page */
  title?: string;
  mode?: 'development' | 'production';
}

export interface RemoteOptions extends FrontEndOptions {
  /** federation name: mf_files, mf_marketplace or mf_player */
  name: string;
  /** what the remote exposes, e.g. { './routes': './src/routes/index.tsx' } */
  exposes: Record<string, string>;
}

const gatewayUrl = () => process.env.GATEWAY_URL ?? 'http://localhost:8080';

/**
 * Host names a dev server may be reached by (and so serve scripts to other origins from): loopback names, plus
 * DEV_ALLOWED_HOSTS (comma-separated, e.g. a LAN name; '.example.test' allows its subdomains too).
 */
export function devAllowedHosts(env: NodeJS.ProcessEnv = process.env): string[] {
  const extra = (env.DEV_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  return [...new Set(['localhost', '127.0.0.1', '.localhost', ...extra])];
}

function modeOf(opts: FrontEndOptions): 'development' | 'production' {
  return opts.mode ?? (process.env.NODE_ENV === 'production' ? 'production' : 'development');
}

/** What every front end shares: TS/TSX through builtin SWC (automatic React runtime), native CSS, hashed names. */
function baseConfig(opts: FrontEndOptions & { publicPath: string; remote?: boolean }): Configuration {
  const mode = modeOf(opts);
  const prod = mode === 'production';
  return {
    mode,
    context: opts.dir,
    entry: { main: './src/index.ts' },
    // production: maps without the sourceMappingURL comment, moved out of dist/ (sourceMapsAsidePlugin)
    devtool: prod ? 'hidden-source-map' : 'cheap-module-source-map',
    target: 'web',
    output: {
      path: path.join(opts.dir, 'dist'),
      publicPath: opts.publicPath,
      // gateway/src/static.ts caches names with an 8+ hex hash forever
      filename: prod ? '[name].[contenthash:10].js' : '[name].js',
      chunkFilename: prod ? '[name].[contenthash:10].js' : '[name].js',
      cssFilename: prod ? '[name].[contenthash:10].css' : '[name].css',
      cssChunkFilename: prod ? '[name].[contenthash:10].css' : '[name].css',
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.jsx', '.js', '.json'],
      // workspace packages import siblings as './x.ts'
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
    },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          loader: 'builtin:swc-loader',
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              // a remote's dev build runs inside a host whose shared React may be a production build: its
              // jsx-dev-runtime would reach into React's development internals and crash, so remotes use jsx-runtime
              transform: { react: { runtime: 'automatic', development: !prod && !opts.remote } },
            },
            env: { targets: 'chrome >= 100, firefox >= 100, safari >= 15' },
          },
          type: 'javascript/auto',
        },
        // contracts' modules only declare schemas and constants: whatever a bundle does not use can be dropped
        // (the landing page needs the constants, not zod)
        { test: /[\\/]packages[\\/]contracts[\\/]src[\\/]/, sideEffects: false },
        { test: /\.css$/, type: 'css/auto' },
        { test: /\.(png|jpe?g|gif|svg|webp|woff2?)$/, type: 'asset' },
      ],
    },
    optimization: { moduleIds: prod ? 'deterministic' : 'named', chunkIds: prod ? 'deterministic' : 'named' },
    performance: { hints: false },
    // lazy compilation (the dev default) rebuilds on the first request of each chunk, and without HMR that
    // reloads the page; federated chunks are requested at run time, so it would reload again and again
    lazyCompilation: false,
    devServer: {
      port: opts.port,
      host: 'localhost',
      historyApiFallback: true,
      hot: false,
      // The composed app (the gateway, or another team's host) loads remoteEntry.js and chunks with plain
      // cross-site script tags; the dev server answers those 403 unless the Host it was reached by is listed.
      allowedHosts: devAllowedHosts(),
      headers: { 'Access-Control-Allow-Origin': '*' },
      proxy: [
        {
          context: ['/api', '/media', '/remotes.json', '/remotes'],
          target: gatewayUrl(),
          changeOrigin: true,
          ws: true,
        },
      ],
    },
  };
}

function htmlPlugin(opts: FrontEndOptions) {
  return new rspack.HtmlRspackPlugin({
    template: path.join(opts.dir, 'index.html'),
    title: opts.title ?? 'Pagecast',
    inject: 'body',
    scriptLoading: 'defer',
    // only the app entry (not a remote's remoteEntry.js), from the root: deep links like /signage/x must work
    chunks: ['main'],
    publicPath: '/',
  });
}

/** Which build of the remote is live: its package version, or PAGECAST_BUILD_LABEL when a build sets one. */
const buildLabelPlugin = (opts: RemoteOptions) =>
  new rspack.DefinePlugin({
    __PAGECAST_BUILD_LABEL__: JSON.stringify(
      process.env.PAGECAST_BUILD_LABEL || `${opts.name}@${readPackageJson(opts.dir).version}`,
    ),
  });

/** What both containers of a remote share: the base configuration at publicPath 'auto', named by the remote. */
function remoteBase(opts: RemoteOptions): Configuration {
  const base = baseConfig({ ...opts, publicPath: 'auto', remote: true });
  return { ...base, name: opts.name, output: { ...base.output, uniqueName: opts.name } };
}

/**
 * A remote's container plugin: the self-contained one (remoteEntry.js, mf-manifest.json), or the lean one
 * (remoteLeanConfig), which leaves the runtime's core to the host. Same exposes and shared policy either way.
 */
function remoteFederationPlugin(opts: RemoteOptions, lean: boolean) {
  return new ModuleFederationPlugin({
    name: opts.name,
    filename: lean ? LEAN_ENTRY : 'remoteEntry.js',
    exposes: opts.exposes,
    shared: sharedPolicy(opts.dir),
    manifest: lean ? { fileName: LEAN_MANIFEST } : true,
    dts: false,
    experiments: lean ? { ...federationExperiments, externalRuntime: true } : federationExperiments,
  });
}

/**
 * A remote: emits remoteEntry.js and mf-manifest.json at publicPath 'auto' (it is served at /remotes/<short>/ by
 * the gateway, or from its own dev server), plus a standalone page (src/index.ts → bootstrap.tsx) for dev.
 */
export function remoteConfig(opts: RemoteOptions): Configuration {
  return {
    ...remoteBase(opts),
    plugins: [
      htmlPlugin(opts),
      ...(modeOf(opts) === 'production' ? [precompressPlugin(), sourceMapsAsidePlugin(opts.dir)] : []),
      buildLabelPlugin(opts),
      remoteFederationPlugin(opts, false),
    ],
  };
}

/**
 * The federation runtime every front end carries (the host's entry, each remote's remoteEntry.js) is built for
 * browsers only: without a target it keeps its Node.js loading paths, which no page of ours runs. */
const federationExperiments = { optimization: { target: 'web' as const } };

/**
 * The file names of a remote's lean container (remoteLeanConfig): the same exposes and chunks as remoteEntry.js and
 * mf-manifest.json, without a runtime of its own.
 */
export const LEAN_ENTRY = 'remoteEntry.lean.js';
export const LEAN_MANIFEST = 'mf-manifest.lean.json';

/**
 * A remote's second container, built beside the first in the same folder (and so at the same public path): its
 * entry leaves out the federation runtime's core (@module-federation/runtime-core, 65 KB of the entry's 115 KB) and
 * takes the one the host provides (hostConfig: provideExternalRuntime, a global of the same pinned version). A
 * player page loaded the runtime twice, once in the shell's entry and once in the remote's (issue 14: 15 KB of
 * brotli and its evaluation on the first screen's path). Only a host that provides the runtime may load it: our shell
 * does, so the gateway's default /remotes.json names this manifest; any other host, another team's or an older shell,
 * keeps the self-contained mf-manifest.json, which REMOTES and the deploy files name.
 */
export function remoteLeanConfig(opts: RemoteOptions): Configuration {
  const base = remoteBase(opts);
  return {
    ...base,
    name: `${opts.name}-lean`,
    // after the full build, whose output cleaning would otherwise remove these files
    dependencies: [opts.name],
    // the container entry only (the plugin adds it): the standalone page is the full build's
    entry: {},
    output: { ...base.output, clean: false },
    plugins: [
      precompressPlugin(),
      sourceMapsAsidePlugin(opts.dir),
      buildLabelPlugin(opts),
      remoteFederationPlugin(opts, true),
    ],
  };
}

/**
 * Every build of a remote: the self-contained container (`name`, the standalone page with it) and, for production,
 * the lean one beside it (remoteLeanConfig). A remote's rspack.config.ts exports these.
 */
export function remoteConfigs(opts: RemoteOptions): [Configuration, ...Configuration[]] {
  const full = remoteConfig(opts);
  return modeOf(opts) === 'production' ? [full, remoteLeanConfig(opts)] : [full];
}

/** Files a browser downloads as text, worth a brotli copy (source maps are fetched by developers' tools only). */
const PRECOMPRESSIBLE = /\.(js|css|json|svg)$/;

/** A plugin that runs `step` once per build, at `stage` of processAssets (both of ours below are one such step). */
function assetsStep(name: string, stage: number, step: (compilation: Compilation) => void) {
  return {
    apply(compiler: Compiler) {
      compiler.hooks.thisCompilation.tap(name, (compilation) => {
        compilation.hooks.processAssets.tap({ name, stage }, () => step(compilation));
      });
    },
  };
}

/**
 * Writes `<file>.br` beside each text asset, at brotli's best quality, which the gateway sends to browsers that
 * accept it (gateway/src/static.ts). Compressing at request time must be fast, so it compresses much less: about 15 %
 * more bytes for the same scripts, and on a slow phone bytes are most of the wait for the first screen (issue 14).
 */
const precompressPlugin = () =>
  // after every asset is final (the host's index.html gets its preloads at SUMMARIZE)
  assetsStep('PagecastPrecompress', rspack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER, (compilation) => {
    for (const asset of compilation.getAssets()) {
      if (!PRECOMPRESSIBLE.test(asset.name)) continue;
      const bytes = asset.source.buffer();
      if (bytes.length < 1024) continue; // a header's worth: not worth a second file
      const br = brotliCompressSync(bytes, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      });
      if (br.length >= bytes.length) continue;
      compilation.emitAsset(`${asset.name}.br`, new rspack.sources.RawSource(br));
    }
  });

/**
 * Where a production build keeps its source maps, beside dist/ (`<front end>/sourcemaps/<file>.map`): for reading an
 * error report's stack, never served. The gateway and the nginx images serve dist/ only; the maps published every
 * source file of the app (issue 35).
 */
export const SOURCE_MAPS_DIR = 'sourcemaps';

/**
 * Moves the build's source maps out of its output into SOURCE_MAPS_DIR. With 'hidden-source-map' the code names no
 * map; the maps are taken once every other step is done (after the brotli copies, which skip them anyway). A build
 * that cleans its output (the full one) clears the folder first; the lean one, built after it into the same dist/,
 * adds its own.
 */
export const sourceMapsAsidePlugin = (frontEndDir: string) => ({
  apply(compiler: Compiler) {
    const name = 'PagecastSourceMapsAside';
    const dir = path.join(frontEndDir, SOURCE_MAPS_DIR);
    const maps = new Map<string, Buffer>();
    compiler.hooks.thisCompilation.tap(name, (compilation) => {
      compilation.hooks.processAssets.tap({ name, stage: rspack.Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        for (const asset of compilation.getAssets()) {
          if (!asset.name.endsWith('.map')) continue;
          maps.set(asset.name, asset.source.buffer());
          compilation.deleteAsset(asset.name);
        }
      });
    });
    compiler.hooks.afterEmit.tapPromise(name, async () => {
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

/** The import of the host's entry that is its async boundary (src/index.ts: `import('./bootstrap')`). */
const ASYNC_BOUNDARY = './bootstrap';

interface ChunkGroupLike {
  origins: ReadonlyArray<{ request?: string | null; module?: { identifier(): string } | null }>;
  chunks: ReadonlyArray<{ files: Iterable<string> }>;
}

/**
 * The chunks every start of the host loads, whatever the page: those behind its async boundary and those of the
 * shared modules it provides (the first render uses them all). The entry finds that out only once it has run, one
 * round trip and its own evaluation after the page; listed in the page they download beside the entry instead.
 */
export function startupFiles(chunkGroups: Iterable<ChunkGroupLike>): string[] {
  const files = new Set<string>();
  for (const group of chunkGroups) {
    const startup = group.origins.some(
      (o) => o.request === ASYNC_BOUNDARY || /^provide shared module /.test(o.module?.identifier() ?? ''),
    );
    if (!startup) continue;
    for (const chunk of group.chunks) {
      for (const file of chunk.files) if (/\.(js|css)$/.test(file)) files.add(file);
    }
  }
  return [...files].sort();
}

/** `<link rel="preload">` of the entry and of startupFiles() in the host's index.html. */
const startupPreloadPlugin = () =>
  // after HtmlRspackPlugin has written index.html
  assetsStep('PagecastStartupPreload', rspack.Compilation.PROCESS_ASSETS_STAGE_SUMMARIZE, (compilation) => {
    const html = compilation.getAsset('index.html');
    if (!html) return;
    const publicPath = String(compilation.outputOptions.publicPath ?? '');
    // the entry first: the page's deferred <script> would otherwise be found only after every preload above it
    const entry = [...compilation.entrypoints.values()].flatMap((e) => e.chunks.flatMap((c) => [...c.files]));
    const startup = startupFiles(compilation.chunkGroups as unknown as ChunkGroupLike[]);
    // Scripts at low priority: what the page paints first (the splash, or a prerendered page with its style sheet)
    // does not wait for them, and on a slow link it should not share the bandwidth with them; they still start at
    // once, beside it.
    const links = [...new Set([...entry.filter((f) => f.endsWith('.js')), ...startup])]
      .map((file) =>
        file.endsWith('.css')
          ? `<link rel="preload" href="${publicPath}${file}" as="style">`
          : `<link rel="preload" href="${publicPath}${file}" as="script" fetchpriority="low">`,
      )
      .join('');
    const source = html.source.source().toString().replace('</head>', `${links}</head>`);
    compilation.updateAsset('index.html', new rspack.sources.RawSource(source));
  });

/**
 * Where the code of the shared singletons lives: each singleton's package and every npm package it depends on; for
 * workspace packages, their src/ and the npm packages they import. The host provides them all, and every start
 * loads them all.
 */
export function sharedCodeDirs(): string[] {
  const dirs = new Set<string>();
  const dependencies = (dir: string) => Object.keys(readPackageJson(dir).dependencies ?? {});
  const visit = (pkg: string) => {
    const dir = path.join(repoRoot, 'node_modules', pkg);
    if (dirs.has(dir) || !existsSync(path.join(dir, 'package.json'))) return;
    dirs.add(dir);
    for (const dep of dependencies(dir)) visit(dep);
  };
  for (const { pkg } of sharedSingletons) {
    const workspaceDir = workspaceDirs[pkg];
    if (!workspaceDir) {
      visit(pkg);
      continue;
    }
    dirs.add(path.join(workspaceDir, 'src'));
    // what it imports from npm (the router's react-router); other workspace packages are not shared
    for (const dep of dependencies(workspaceDir)) if (!dep.startsWith('@pagecast/')) visit(dep);
  }
  return [...dirs].sort();
}

/** @pagecast/i18n's catalogues, and the one of them it bundles (Japanese); the others are loaded on demand. */
const CATALOGUES = path.join(workspaceDirs['@pagecast/i18n'] ?? '', 'src', 'locales') + path.sep;
const BUNDLED_CATALOGUE = `${CATALOGUES}ja${path.sep}`;

/**
 * Whether a module (its file) is shared-singleton code, for the host's one `shared` chunk: not @pagecast/i18n's
 * catalogues other than the bundled one.
 */
export function isSharedCode(resource: string, dirs: readonly string[]): boolean {
  if (resource.startsWith(CATALOGUES) && !resource.startsWith(BUNDLED_CATALOGUE)) return false;
  return dirs.some((dir) => resource.startsWith(dir + path.sep));
}

/** The chunk name @pagecast/i18n gives each catalogue it loads on demand (catalogues.ts): 'catalogue-<language>'. */
const CATALOGUE_CHUNK = /^catalogue-([a-z]{2})$/;

/**
 * language → the files of its catalogue chunk, in dist/catalogues.json: the gateway preloads the visitor's from the
 * page's head (gateway/src/static.ts), since the entry would ask for it only once it has arrived and run.
 */
export function catalogueFiles(chunkGroups: Iterable<{ name?: string | null; chunks: ChunkGroupLike['chunks'] }>) {
  const files: Record<string, string[]> = {};
  for (const group of chunkGroups) {
    const language = CATALOGUE_CHUNK.exec(group.name ?? '')?.[1];
    if (!language) continue;
    files[language] = group.chunks.flatMap((chunk) => [...chunk.files]).filter((f) => f.endsWith('.js'));
  }
  return files;
}

const catalogueListPlugin = () =>
  assetsStep('PagecastCatalogueList', rspack.Compilation.PROCESS_ASSETS_STAGE_SUMMARIZE, (compilation) => {
    const files = catalogueFiles(compilation.chunkGroups as unknown as Parameters<typeof catalogueFiles>[0]);
    compilation.emitAsset('catalogues.json', new rspack.sources.RawSource(`${JSON.stringify(files)}\n`));
  });

/** The host: no remote is built in (principle 6); it registers what /remotes.json lists at run time. */
export function hostConfig(opts: FrontEndOptions & { name?: string }): Configuration {
  const base = baseConfig({ ...opts, publicPath: '/' });
  const sharedDirs = sharedCodeDirs();
  return {
    ...base,
    output: { ...base.output, uniqueName: opts.name ?? 'shell' },
    optimization: {
      ...base.optimization,
      // The shared singletons in one file: each was a chunk of its own (react-dom, react-query, i18next, the router,
      // ui...), a dozen requests where a browser opens six connections per origin over HTTP/1.1, and on a slow link
      // each round of them cost a round trip (issue 14: player TBT 108-274 -> 30-117 ms, Lighthouse 91 -> 95-96).
      splitChunks: {
        cacheGroups: {
          shared: {
            name: 'shared',
            chunks: 'async',
            enforce: true,
            // code and data only: a style sheet stays in the app's one (a page links it), not in a second one
            type: /^(javascript|json)/,
            test: (module) => isSharedCode(module.nameForCondition() ?? '', sharedDirs),
          },
        },
      },
    },
    plugins: [
      htmlPlugin(opts),
      startupPreloadPlugin(),
      catalogueListPlugin(),
      ...(modeOf(opts) === 'production' ? [precompressPlugin(), sourceMapsAsidePlugin(opts.dir)] : []),
      new ModuleFederationPlugin({
        name: opts.name ?? 'shell',
        remotes: {},
        shared: sharedPolicy(opts.dir),
        dts: false,
        // the runtime's core as a global, for the remotes' lean containers (remoteLeanConfig)
        experiments: { ...federationExperiments, provideExternalRuntime: true },
      }),
    ],
  };
}
