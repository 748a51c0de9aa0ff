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
