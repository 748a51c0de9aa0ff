// A remote's builds: the self-contained container (with its standalone page) and, for production, the lean one.
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import type { Configuration } from '@rspack/core';
import { buildLabelPlugin } from '../plugins/build-label';
import { htmlPlugin } from '../plugins/html';
import { precompressPlugin } from '../plugins/precompress';
import { sourceMapsAsidePlugin } from '../plugins/source-maps-aside';
import { sharedPolicy } from '../shared-policy';
import { baseConfig, type FrontEndOptions, federationExperiments, modeOf } from './base';

export interface RemoteOptions extends FrontEndOptions {
  /** federation name: mf_files, mf_marketplace or mf_player */
  name: string;
  /** what the remote exposes, e.g. { './routes': './src/routes/index.tsx' } */
  exposes: Record<string, string>;
}

/**
 * The file names of a remote's lean container (remoteLeanConfig): the same exposes and chunks as remoteEntry.js and
 * mf-manifest.json, without a runtime of its own.
 */
export const LEAN_ENTRY = 'remoteEntry.lean.js';
export const LEAN_MANIFEST = 'mf-manifest.lean.json';

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
 * A remote's second container, built beside the first in the same folder (and so at the same public path): its
 * entry leaves out the federation runtime's core (@module-federation/runtime-core, 65 KB of the entry's 115 KB) and
 * takes the one the host provides (hostConfig: provideExternalRuntime, a global of the same pinned version). A
 * player page loaded the runtime twice, once in the shell's entry and once in the remote's (15 KB of
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
