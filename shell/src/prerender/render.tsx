// The shell's visitor pages rendered to HTML at build time (issue 14): a phone shows the landing page and the login
// form from the page itself, before any script has run, and React then hydrates that markup instead of drawing it
// again. Only pages that are the same for every visitor in a language qualify: no session, no query string.
import { initI18n, type Language } from '@pagecast/i18n';
import { MemoryRouter } from '@pagecast/router';
import { createQueryClient, currentUserQueryKey } from '@pagecast/ui';
import { prerenderToNodeStream } from 'react-dom/static';
import { AppContent, AppProviders } from '../app/app';

/** Path → file name under dist/prerendered/<language>/ (the gateway serves these paths from there). */
export const PRERENDERED_PAGES = { '/': 'index', '/login': 'login' } as const;
export type PrerenderedPath = keyof typeof PRERENDERED_PAGES;

/** The markup of `pathname` for a visitor (no session) in `language`, with every lazy page resolved. */
export async function renderPage(pathname: PrerenderedPath, language: Language): Promise<string> {
  const i18n = await initI18n({ lng: language });
  await i18n.changeLanguage(language);
  const queryClient = createQueryClient();
  // what the browser's seedSignedOut() sets from the gateway's signed-out mark
  queryClient.setQueryData(currentUserQueryKey, null);
  const { prelude } = await prerenderToNodeStream(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[pathname]}>
        <AppContent />
      </MemoryRouter>
    </AppProviders>,
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** The root of the build's index.html, empty or holding its splash (shell/index.html). */
const ROOT = /<div id="root">(?:<div class="pc-splash">[\s\S]*?<\/div>)?<\/div>/;

/**
 * The build's index.html with `markup` in its root instead of the splash, marked with the language it was rendered in
 * (bootstrap.tsx hydrates only when it starts in that language). The stylesheets the entry would add come first as
 * <link rel="stylesheet">: the markup must not be painted unstyled.
 */
export function prerenderedHtml(template: string, markup: string, language: Language): string {
  if (!ROOT.test(template)) throw new Error('index.html has no <div id="root"> to fill');
  return template
    .replace(/<html lang="[^"]*"/, `<html lang="${language}"`)
    .replace(/<link rel="preload" href="([^"]+\.css)" as="style">/g, '<link rel="stylesheet" href="$1">')
    .replace(ROOT, () => `<div id="root" data-prerendered="${language}">${markup}</div>`);
}
