import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SIGNAGE_FRAME } from '@pagecast/contracts';
import { createQueryClient, currentUserQueryKey } from '@pagecast/ui';
import { MemoryRouter } from '@pagecast/router';
import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppContent, AppProviders } from '../src/app/app';
import { prerenderedHtml } from '../src/prerender/render';

const template =
  '<!doctype html><html lang="ja"><head><title>Pagecast</title>' +
  '<link rel="preload" href="/main.0123456789.js" as="script" fetchpriority="low">' +
  '<link rel="preload" href="/255.0123456789.css" as="style"></head>' +
  '<body><div id="root"><div class="pc-splash"><span class="pc-splash__mark">P</span>Pagecast</div></div>' +
  '<script defer src="/main.0123456789.js"></script></body></html>';

// The build step itself, as `npm run prerender` runs it, in its own process: React's server renderer sets context
// values as it goes, and here it must not share them with the client renderer the hydration test uses.
let dist: string;
const page = (language: string, name: string) =>
  readFileSync(path.join(dist, 'prerendered', language, `${name}.html`), 'utf8');
beforeAll(() => {
  dist = mkdtempSync(path.join(tmpdir(), 'prerender-'));
  writeFileSync(path.join(dist, 'index.html'), template);
  const shell = path.resolve(import.meta.dirname, '..');
  const out = execFileSync('npm', ['run', '--silent', 'prerender', '--', dist], { cwd: shell, encoding: 'utf8' });
  expect(out).toMatch(/prerendered 12 pages/);
}, 60_000);
afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe('prerendered visitor pages', () => {
  it('are written for the landing page and the login form in every language, lazy page included', () => {
    const login = page('fr', 'login');
    expect(login).toContain('data-testid="login-page"'); // the lazy page, not its loading fallback
    expect(login).toContain('Connexion');
    expect(login).toContain('<option value="fr" lang="fr" selected="">');
    expect(login).toContain('<html lang="fr">');
    expect(page('en', 'index')).toContain('Turn PDF, PowerPoint and Word files into digital signage');
    expect(page('en', 'index')).toContain('3,000');
    expect(page('ja', 'index')).toContain('PDF・PowerPoint・Wordを、そのままデジタルサイネージに');
    expect(page('it', 'login')).toContain('data-prerendered="it"');
  });

  it("are written for a signage page too: the player's loading frame in each language, drawn again, not hydrated", () => {
    const fr = page('fr', SIGNAGE_FRAME);
    expect(fr).toContain('<html lang="fr">');
    // the frame in the root, unmarked: bootstrap.tsx draws the shell (whose fallback is this frame) instead of hydrating
    expect(fr).toMatch(/<div id="root"><div class="pc-player-frame" data-testid="player-frame">/);
    expect(fr).not.toContain('data-prerendered');
    expect(fr).not.toContain('pc-splash');
    expect(fr).toContain('Appuyez sur ÉCHAP pour arrêter la lecture'); // the player header's ESC hint, in French
    expect(page('ja', SIGNAGE_FRAME)).toContain('ESCキーで再生を停止します');
    expect(page('ja', SIGNAGE_FRAME)).toContain('ファイルを読み込み中...');
    expect(fr).toContain('<link rel="stylesheet" href="/255.0123456789.css">'); // black from the first paint
  });

  it('put the markup in the root, marked with its language, styled from the first paint', () => {
    const html = prerenderedHtml(template, '<p>hello</p>', 'it');
    expect(html).toContain('<html lang="it">');
    expect(html).toContain('<div id="root" data-prerendered="it"><p>hello</p></div>');
    expect(html).toContain('<link rel="stylesheet" href="/255.0123456789.css">');
    expect(html).not.toContain('as="style"');
    expect(html).not.toContain('pc-splash'); // the markup replaces the splash
    expect(
      prerenderedHtml(template.replace(/<div id="root">.*<\/div><\/div>/, '<div id="root"></div>'), 'x', 'en'),
    ).toContain('<div id="root" data-prerendered="en">x</div>');
    expect(prerenderedHtml(template, '<p>frame</p>', 'fr', false)).toContain('<div id="root"><p>frame</p></div>');
    expect(() => prerenderedHtml('<html><body></body></html>', '', 'ja')).toThrow(/root/);
  });

  it('are markup React hydrates as it is: no mismatch, the server-rendered nodes are kept', async () => {
    const html = page('en', 'login');
    const root = document.createElement('div');
    root.innerHTML = /<div id="root" data-prerendered="en">([\s\S]*)<\/div><script/.exec(html)?.[1] ?? '';
    document.body.append(root);
    const title = root.querySelector('h1');
    expect(title?.textContent).toBe('Log in');
    const { initI18n } = await import('@pagecast/i18n');
    await (await initI18n({ lng: 'en' })).changeLanguage('en');
    const errors: unknown[] = [];
    const queryClient = createQueryClient();
    queryClient.setQueryData(currentUserQueryKey, null);
    await act(async () => {
      hydrateRoot(
        root,
        <AppProviders queryClient={queryClient}>
          <MemoryRouter initialEntries={['/login']}>
            <AppContent />
          </MemoryRouter>
        </AppProviders>,
        { onRecoverableError: (error) => errors.push(error) },
      );
    });
    // the login page is lazy: its boundary hydrates once its module has loaded (React marks the nodes it took over)
    const hydrated = (node: Element | null) =>
      Boolean(node && Object.keys(node).some((k) => k.startsWith('__reactFiber')));
    for (let i = 0; i < 100 && !hydrated(root.querySelector('h1')) && errors.length === 0; i += 1) {
      await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    }
    expect(errors).toEqual([]);
    expect(root.querySelector('h1')).toBe(title); // hydrated in place, not drawn again
    expect(hydrated(title)).toBe(true);
    expect(root.querySelector('#login-email')).not.toBeNull();
    root.remove();
  });
});
