// Writes dist/prerendered/<language>/<page>.html (and the signage page's loading frame) from the production build's dist/index.html (render.tsx says why).
// Run after `rspack build` (npm run prerender); another build folder may be given as the first argument.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import path from 'node:path';

// Pages import their stylesheets for rspack; here a stylesheet is nothing (the page links the build's CSS files).
registerHooks({
  load: (url, context, nextLoad) =>
    url.endsWith('.css') ? { format: 'module', source: '', shortCircuit: true } : nextLoad(url, context),
});
const { PRERENDERED_PAGES, SIGNAGE_FRAME } = await import('@pagecast/contracts');
const { languages } = await import('@pagecast/i18n');
const { prerenderedHtml, renderPage, renderSignageFrame } = await import('./render');
type PrerenderedPath = import('@pagecast/contracts').PrerenderedPath;

const dist = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../../dist'));
const template = readFileSync(path.join(dist, 'index.html'), 'utf8');
const t0 = performance.now();
let count = 0;
for (const language of languages) {
  mkdirSync(path.join(dist, 'prerendered', language), { recursive: true });
  for (const [pathname, name] of Object.entries(PRERENDERED_PAGES)) {
    const markup = await renderPage(pathname as PrerenderedPath, language);
    writeFileSync(
      path.join(dist, 'prerendered', language, `${name}.html`),
      prerenderedHtml(template, markup, language),
    );
    count += 1;
  }
  writeFileSync(
    path.join(dist, 'prerendered', language, `${SIGNAGE_FRAME}.html`),
    prerenderedHtml(template, await renderSignageFrame(language), language, false),
  );
  count += 1;
}
console.log(`prerendered ${count} pages (${languages.join(', ')}) in ${Math.round(performance.now() - t0)} ms`);
