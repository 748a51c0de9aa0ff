import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import { rspack } from '@rspack/core';
import { assetsStep } from './assets-step';

/** Files a browser downloads as text, worth a brotli copy (source maps are fetched by developers' tools only). */
const PRECOMPRESSIBLE = /\.(js|css|json|svg)$/;

/**
 * Writes `<file>.br` beside each text asset, at brotli's best quality, which the gateway sends to browsers that
 * accept it (gateway/src/static.ts). Compressing at request time must be fast, so it compresses much less: about 15 %
 * more bytes for the same scripts, and on a slow phone bytes are most of the wait for the first screen.
 */
export const precompressPlugin = () =>
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
