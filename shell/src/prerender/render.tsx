// The shell's visitor pages rendered to HTML at build time: a phone shows the landing page and the login
// form from the page itself, before any script has run, and React then hydrates that markup instead of drawing it
// again. Only pages that are the same for every visitor in a language qualify: no session, no query string.
// A signage page gets its loading frame the same way: the same for every viewer in a language, whatever the file.
import type { PrerenderedPath } from '@pagecast/contracts';
import { initI18n, type Language } from '@pagecast/i18n';
import { MemoryRouter } from '@pagecast/router';
import { createQueryClient, currentUserQueryKey } from '@pagecast/ui';
import type { ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { AppContent, AppProviders } from '../app/app';
import { SignageLoading } from '../app/routes';

async function markupOf(element: ReactNode): Promise<string> {
  const { prelude } = await prerenderToNodeStream(element);
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

async function startIn(language: Language) {
  const i18n = await initI18n({ lng: language });
  await i18n.changeLanguage(language);
}

/** The markup of `pathname` for a visitor (no session) in `language`, with every lazy page resolved. */
export async function renderPage(pathname: PrerenderedPath, language: Language): Promise<string> {
  await startIn(language);
  const queryClient = createQueryClient();
  // what the browser's seedSignedOut() sets from the gateway's signed-out mark
  queryClient.setQueryData(currentUserQueryKey, null);
  return markupOf(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[pathname]}>
        <AppContent />
      </MemoryRouter>
    </AppProviders>,
  );
}

/** The loading frame of a signage page in `language` (the shell's fallback while the player remote loads). */
export async function renderSignageFrame(language: Language): Promise<string> {
  await startIn(language);
  return markupOf(<SignageLoading />);
}

/** The root of the build's index.html, empty or holding its splash (shell/index.html). */
const ROOT = /<div id="root">(?:<div class="pc-splash">[\s\S]*?<\/div>)?<\/div>/;

/**
 * The build's index.html with `markup` in its root instead of the splash, marked with the language it was rendered in
 * (bootstrap.tsx hydrates only when it starts in that language) unless `hydrate` is false (a frame the shell draws
 * again). The stylesheets the entry would add come first as <link rel="stylesheet">: the markup must not be painted
 * unstyled.
 */
export function prerenderedHtml(template: string, markup: string, language: Language, hydrate = true): string {
  if (!ROOT.test(template)) throw new Error('index.html has no <div id="root"> to fill');
  const root = hydrate ? `<div id="root" data-prerendered="${language}">` : '<div id="root">';
  return template
    .replace(/<html lang="[^"]*"/, `<html lang="${language}"`)
    .replace(/<link rel="preload" href="([^"]+\.css)" as="style">/g, '<link rel="stylesheet" href="$1">')
    .replace(ROOT, () => `${root}${markup}</div>`);
}
