// What every front end's rspack configuration shares (the host's and the remotes' build on it).
import path from 'node:path';
import type { Configuration } from '@rspack/core';

export interface FrontEndOptions {
  /** the front end's folder (where package.json and src/ live) */
  dir: string;
  /** dev server port (docs/platform.md: shell 3000, mf-files 3001, mf-marketplace 3002, mf-player 3003) */
  port: number;
  /** page title of the standalone/host HTML page */
  title?: string;
  mode?: 'development' | 'production';
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

export function modeOf(opts: FrontEndOptions): 'development' | 'production' {
  return opts.mode ?? (process.env.NODE_ENV === 'production' ? 'production' : 'development');
}

/**
 * The federation runtime every front end carries (the host's entry, each remote's remoteEntry.js) is built for
 * browsers only: without a target it keeps its Node.js loading paths, which no page of ours runs. */
export const federationExperiments = { optimization: { target: 'web' as const } };

/** What every front end shares: TS/TSX through builtin SWC (automatic React runtime), native CSS, hashed names. */
export function baseConfig(opts: FrontEndOptions & { publicPath: string; remote?: boolean }): Configuration {
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
