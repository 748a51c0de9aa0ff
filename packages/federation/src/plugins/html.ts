import path from 'node:path';
import { rspack } from '@rspack/core';
import type { FrontEndOptions } from '../configs/base';

/** The front end's page (index.html): the host's, or a remote's standalone one. */
export function htmlPlugin(opts: FrontEndOptions) {
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
