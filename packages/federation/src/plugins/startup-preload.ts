import { rspack } from '@rspack/core';
import { assetsStep } from './assets-step';

/** The import of the host's entry that is its async boundary (src/index.ts: `import('./bootstrap')`). */
const ASYNC_BOUNDARY = './bootstrap';

export interface ChunkGroupLike {
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
export const startupPreloadPlugin = () =>
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
