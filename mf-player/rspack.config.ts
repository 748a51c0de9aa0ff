import path from 'node:path';
import { remoteConfigs } from '@pagecast/federation';
import { type Configuration, rspack } from '@rspack/core';

const [remote, ...lean] = remoteConfigs({
  name: 'mf_player',
  dir: import.meta.dirname,
  port: 3003,
  title: 'Pagecast player (standalone)',
  exposes: { './routes': './src/routes/index.ts' },
});

// The service worker: its own bundle with a fixed name (dist/sw.js, revalidated on every load), built after the
// remote so that the remote's output cleaning keeps it.
const serviceWorker: Configuration = {
  name: 'sw',
  dependencies: ['mf_player'],
  mode: remote.mode,
  context: import.meta.dirname,
  target: 'webworker',
  entry: { sw: './src/sw/sw.ts' },
  devtool: false,
  output: {
    path: path.join(import.meta.dirname, 'dist'),
    filename: '[name].js',
    publicPath: '/',
    clean: false,
    iife: true,
  },
  resolve: { extensions: ['.ts', '.js'] },
  // the cap on what a display keeps, in MiB (src/sw/keep.ts; empty: its default)
  plugins: [new rspack.DefinePlugin({ __PLAYER_CACHE_MB__: JSON.stringify(process.env.PLAYER_CACHE_MB ?? '') })],
  module: {
    rules: [
      {
        test: /\.ts$/,
        exclude: /node_modules/,
        loader: 'builtin:swc-loader',
        options: { jsc: { parser: { syntax: 'typescript' } }, env: { targets: 'chrome >= 100, firefox >= 100' } },
        type: 'javascript/auto',
      },
    ],
  },
  performance: { hints: false },
};

export default [
  { ...remote, output: { ...remote.output, clean: { keep: (p: string) => p === 'sw.js' } } },
  ...lean,
  serviceWorker,
];
