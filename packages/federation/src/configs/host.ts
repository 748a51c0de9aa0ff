import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import type { Configuration } from '@rspack/core';
import { catalogueListPlugin } from '../plugins/catalogue-list';
import { htmlPlugin } from '../plugins/html';
import { precompressPlugin } from '../plugins/precompress';
import { sourceMapsAsidePlugin } from '../plugins/source-maps-aside';
import { startupPreloadPlugin } from '../plugins/startup-preload';
import { isSharedCode, sharedCodeDirs } from '../shared-code';
import { sharedPolicy } from '../shared-policy';
import { baseConfig, type FrontEndOptions, federationExperiments, modeOf } from './base';

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
      // each round of them cost a round trip (player TBT 108-274 -> 30-117 ms, Lighthouse 91 -> 95-96).
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
