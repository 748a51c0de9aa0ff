import { rspack } from '@rspack/core';
import { readPackageJson } from '../workspace';

/** Which build of the remote is live: its package version, or PAGECAST_BUILD_LABEL when a build sets one. */
export const buildLabelPlugin = (opts: { name: string; dir: string }) =>
  new rspack.DefinePlugin({
    __PAGECAST_BUILD_LABEL__: JSON.stringify(
      process.env.PAGECAST_BUILD_LABEL || `${opts.name}@${readPackageJson(opts.dir).version}`,
    ),
  });
