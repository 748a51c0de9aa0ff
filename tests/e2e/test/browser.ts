// One fresh Chromium profile per browser context: the machine has no internet, so background services are off.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page, type Request } from 'playwright-core';
import { inject } from 'vitest';

export const baseUrl = (): string => inject('baseUrl');

/** The real documents the scenarios upload (the scripts set PAGECAST_CORPUS to the checkout's shared/corpus). */
export const corpusDir = process.env.PAGECAST_CORPUS ?? '/work/shared/corpus';

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Session {
  context: BrowserContext;
  page: Page;
  /** URLs of every request the page made */
  requests: string[];
  close(): Promise<void>;
}

export async function openBrowser(options: { locale?: string } = {}): Promise<Session> {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'pagecast-e2e-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: chromiumArgs,
    locale: options.locale ?? 'ja-JP',
    viewport: { width: 1280, height: 900 },
    baseURL: baseUrl(),
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const requests: string[] = [];
  context.on('request', (r: Request) => requests.push(r.url()));
  return {
    context,
    page,
    requests,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

// the lean containers the gateway lists by default (packages/federation: remoteLeanConfig)
export const manifestOf = (short: 'files' | 'marketplace' | 'player') => `/remotes/${short}/mf-manifest.lean.json`;

type SeenWindow = Window & { pagecastSeen?: Record<string, true> };

/**
 * Records, in the page itself, that an element with this test id has been attached at least once, and returns a wait
 * for it. A locator polls, and can miss an element that lives briefly on a loaded machine (a visitor's page sends them
 * to /login 500 ms after it mounts); the record cannot. Call it before the action that brings the element: it holds
 * across later page loads of this page too.
 */
export async function watchAppearance(page: Page, testId: string): Promise<(timeout?: number) => Promise<void>> {
  const watch = (id: string) => {
    const w = window as SeenWindow;
    w.pagecastSeen ??= {};
    const seen = w.pagecastSeen;
    const check = () => {
      if (!document.querySelector(`[data-testid="${id}"]`)) return false;
      seen[id] = true;
      return true;
    };
    if (check()) return;
    new MutationObserver((_, observer) => {
      if (check()) observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  };
  await page.addInitScript(watch, testId);
  if (page.url() !== 'about:blank') await page.evaluate(watch, testId);
  return async (timeout = 30_000) => {
    await page.waitForFunction((id) => (window as SeenWindow).pagecastSeen?.[id] === true, testId, { timeout });
  };
}
