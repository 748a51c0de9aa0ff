import { rspack } from '@rspack/core';
import { assetsStep } from './assets-step';
import type { ChunkGroupLike } from './startup-preload';

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

/** Writes dist/catalogues.json (catalogueFiles) in the host's build. */
export const catalogueListPlugin = () =>
  assetsStep('PagecastCatalogueList', rspack.Compilation.PROCESS_ASSETS_STAGE_SUMMARIZE, (compilation) => {
    const files = catalogueFiles(compilation.chunkGroups as unknown as Parameters<typeof catalogueFiles>[0]);
    compilation.emitAsset('catalogues.json', new rspack.sources.RawSource(`${JSON.stringify(files)}\n`));
  });
