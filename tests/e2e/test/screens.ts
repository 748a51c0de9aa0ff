// Every screen of the app for the accessibility and small-screen checks, read from the shell's route table
// (shell/src/app/routes.tsx) so that a route added there is checked without touching the tests. Dialogs are listed
// here, one line each.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Where the screenshots of every screen at every width are kept (git-ignored). */
export const screensDir = path.join(repoRoot, '.data/test/screens');

export type Language = 'ja' | 'en' | 'fr' | 'it';
export const languages: Language[] = ['ja', 'en', 'fr', 'it'];
/** axe runs in Japanese (the product's language) and French (the longest labels). */
export const axeLanguages: Language[] = ['ja', 'fr'];
export const widths = [390, 1024, 1440] as const;

/** A path the route table does not know, for the not-found screen. */
export const unknownPath = '/no-such-page-a11y';

export interface RouteTable {
  signedIn: string[];
  signedOut: string[];
  /** routes outside both tables (the player) */
  always: string[];
}

function pathsIn(source: string): string[] {
  const paths: string[] = [];
  for (const m of source.matchAll(/<Route\b([^>]*?)\/?>/g)) {
    const attrs = m[1] ?? '';
    if (/\bindex\b/.test(attrs)) paths.push('/');
    const p = attrs.match(/\bpath="([^"]+)"/)?.[1];
    if (p) paths.push(p === '*' ? unknownPath : p);
  }
  return [...new Set(paths)];
}

/** The route table of the shell, parsed from its source (one <Route path="..."> per screen). */
export function routeTable(): RouteTable {
  const source = readFileSync(path.join(repoRoot, 'shell/src/app/routes.tsx'), 'utf8');
  const body = (fn: string) => {
    const at = source.indexOf(`function ${fn}(`);
    if (at < 0) throw new Error(`routes.tsx has no ${fn}(): update tests/e2e/test/screens.ts`);
    const end = source.indexOf('\nfunction ', at + 1);
    const next = source.indexOf('\nexport ', at + 1);
    return source.slice(at, Math.min(...[end, next].filter((n) => n > 0)));
  };
  const signedIn = pathsIn(body('signedInRoutes'));
  const signedOut = pathsIn(body('signedOutRoutes'));
  const appRoutes = source.slice(source.indexOf('export function AppRoutes'));
  const always = pathsIn(appRoutes).filter((p) => !signedIn.includes(p) && !signedOut.includes(p));
  if (signedIn.length < 5 || signedOut.length < 5) throw new Error('routes.tsx: route table not recognised');
  return { signedIn, signedOut, always };
}

/** Fills the `:param` segments of a route with fixtures; a new parameter must be added here or the run fails. */
export function concrete(route: string, params: Record<string, string>): string {
  return route.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (!value) throw new Error(`no fixture for :${name} in ${route}: add one in the accessibility test`);
    return value;
  });
}

export interface DialogCase {
  name: string;
  route: string;
  /** data-testid of the control that opens it (the first one on the screen) */
  opener: string;
  /** data-testid of the open dialog */
  dialog: string;
}

/** Every dialog checked open (axe, focus trap, focus return). One line per dialog. */
export const dialogs: DialogCase[] = [
  { name: 'upload', route: '/files', opener: 'files-upload', dialog: 'upload-dialog' },
  { name: 'publish settings', route: '/files', opener: 'file-publish-settings', dialog: 'publish-dialog' },
  { name: 'delete confirmation', route: '/files', opener: 'file-delete', dialog: 'delete-dialog' },
  { name: 'point purchase', route: '/points', opener: 'points-buy', dialog: 'purchase-dialog' },
  // The marketplace's purchase confirmation needs another member's listing on sale; its screen is checked by route.
];

/** Waits until the screen has rendered: a level-1 heading is visible and no spinner is left. */
export async function screenReady(page: Page) {
  await page.waitForFunction(
    () => {
      const visible = (el: Element) => (el as HTMLElement).checkVisibility?.() ?? true;
      const h1 = [...document.querySelectorAll('h1')].some(visible);
      const spinning = [...document.querySelectorAll('.pc-spinner')].some(visible);
      return h1 && !spinning;
    },
    undefined,
    { timeout: 20_000 },
  );
  // bounded in the page: a promise there that never settles would hold page.evaluate for ever (it has no time-out)
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        void document.fonts.ready.then(() => done());
        setTimeout(done, 5_000);
      }),
  );
}

/**
 * Waits for the next two frames after a change of size, so what is measured has been laid out and painted; at most a
 * second, as a headless page that paints no frame for a while (nothing changed on it) would otherwise hold the call.
 */
export async function afterPaint(page: Page) {
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        requestAnimationFrame(() => requestAnimationFrame(() => done()));
        setTimeout(done, 1_000);
      }),
  );
}

export async function setLanguage(page: Page, language: Language) {
  await page.evaluate((l) => localStorage.setItem('i18nextLng', l), language);
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** axe-core on the page as it is now; only serious and critical findings are returned. */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  // evaluated rather than added as a <script>: the app's Content-Security-Policy rightly refuses inline scripts
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // colours are judged once fade-ins are over (a dialog's opening fade would read as low contrast)
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    // a minute at most (a screen takes 1-3 s): an axe run that never ends fails here rather than holding the test
    const result = await Promise.race([
      axe.run(document, { resultTypes: ['violations'] }),
      new Promise<never>((_, fail) => setTimeout(() => fail(new Error('axe-core did not finish in 60 s')), 60_000)),
    ]);
    return result.violations.map((v) => ({
      rule: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Layout at the current width: the page does not scroll sideways, nothing sticks out of the window, titles and cards
 * keep a margin from its edges, and nothing in a header is cut off (by the window, by a clipping container or by an
 * ellipsis). Returns what is wrong, in words.
 */
export async function layoutProblems(page: Page, options: { edgeMargin: number }): Promise<string[]> {
  return page.evaluate(({ edgeMargin }) => {
    const problems: string[] = [];
    const vw = document.documentElement.clientWidth;
    const describe = (el: Element) => {
      const id = el.getAttribute('data-testid');
      const text = (el.textContent ?? '').trim().slice(0, 40);
      return `${el.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : el.className ? `.${String(el.className).split(' ')[0]}` : ''} "${text}"`;
    };
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      return (
        r.width > 1 && r.height > 1 && ((el as HTMLElement).checkVisibility?.({ visibilityProperty: true }) ?? true)
      );
    };
    const clips = (el: Element) => {
      const s = getComputedStyle(el);
      return s.overflowX !== 'visible' || s.overflowY !== 'visible';
    };
    if (document.documentElement.scrollWidth > vw + 1)
      problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide in ${vw} px`);
    for (const el of document.body.querySelectorAll('*')) {
      if (!shown(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.right <= vw + 1 && r.left >= -1) continue;
      // content of a container that scrolls or clips by design is judged by that container
      let parent = el.parentElement;
      let clipped = false;
      while (parent && parent !== document.body) {
        if (clips(parent)) clipped = true;
        parent = parent.parentElement;
      }
      if (!clipped)
        problems.push(`sticks out of the window (${Math.round(r.left)}..${Math.round(r.right)}): ${describe(el)}`);
    }
    // titles and cards must not touch the window's edges (full-screen players excepted: no titles there)
    for (const el of document.querySelectorAll('main h1, main h2, main .pc-card, main .pc-page__title')) {
      if (!shown(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.left < edgeMargin || r.right > vw - edgeMargin)
        problems.push(`touches the edge (${Math.round(r.left)}..${Math.round(r.right)} of ${vw}): ${describe(el)}`);
    }
    // the headers: every control and every piece of text fully visible
    for (const header of document.querySelectorAll('header')) {
      if (!shown(header)) continue;
      for (const el of header.querySelectorAll('a, button, select, h1, span, label')) {
        if (!shown(el)) continue;
        if (el.classList.contains('pc-visually-hidden')) continue;
        const r = el.getBoundingClientRect();
        if (r.left < -1 || r.right > vw + 1) problems.push(`header item outside the window: ${describe(el)}`);
        let parent = el.parentElement;
        while (parent && parent !== document.documentElement) {
          if (clips(parent)) {
            const p = parent.getBoundingClientRect();
            if (r.left < p.left - 1 || r.right > p.right + 1 || r.top < p.top - 1 || r.bottom > p.bottom + 1)
              problems.push(`header item clipped by ${describe(parent)}: ${describe(el)}`);
          }
          parent = parent.parentElement;
        }
        const he = el as HTMLElement;
        if (
          el.tagName !== 'SELECT' &&
          he.scrollWidth > he.clientWidth + 1 &&
          getComputedStyle(el).overflowX !== 'visible'
        )
          problems.push(`header text cut off (${he.scrollWidth} px in ${he.clientWidth} px): ${describe(el)}`);
      }
    }
    return problems;
  }, options);
}

/** Every control Tab should reach on the page as it is now, by a description, in document order. */
export async function tabbableControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector =
      // a <details>'s summary takes a Tab stop of its own (the alert rules' words in four languages are folded in them)
      'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex], details > summary:first-of-type';
    const w = window as unknown as { __a11yKey?: (el: Element) => string };
    let n = 0;
    w.__a11yKey = (el: Element) => {
      if (!el.hasAttribute('data-a11y-key')) el.setAttribute('data-a11y-key', String(n++));
      return el.getAttribute('data-a11y-key') as string;
    };
    return [...document.querySelectorAll<HTMLElement>(selector)]
      .filter(
        (el) => el.tabIndex >= 0 && el.getClientRects().length > 0 && el.checkVisibility({ visibilityProperty: true }),
      )
      .map((el) => w.__a11yKey?.(el) as string);
  });
}
