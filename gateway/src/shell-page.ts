// Which page a navigation of the single-page app gets (static.ts): the prerendered one for this visitor when there is
// one, else index.html, marked signed out for a visitor without a session cookie; each read again only after a rebuild.
import fs from 'node:fs';
import path from 'node:path';
import {
  constants,
  LANGUAGE_COOKIE,
  PRERENDERED_PAGES,
  SESSION_HINT_META,
  SIGNAGE_FRAME,
  signageFileId,
} from '@pagecast/contracts';
import type express from 'express';
import { readCookie } from './cookies';

/** The paths that belong to the single-page app: GET navigations outside /api, /media and /remotes, no file name. */
export function isAppNavigation(req: express.Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (/^\/(api|media|remotes)(\/|$)/.test(req.path)) return false;
  // the probes' and the scraper's paths are the internal listener's: here a 404, not the app's page with a 200 that
  // a probe aimed at the wrong port would take for a healthy gateway
  if (/^\/(healthz|readyz|metrics)\/?$/.test(req.path)) return false;
  const last = req.path.split('/').pop() ?? '';
  if (last.includes('.')) return false; // an asset that does not exist: 404, not the app
  return Boolean(req.accepts('html'));
}

const SIGNED_OUT_HINT = `<meta name="${SESSION_HINT_META}" content="none" />`;

/**
 * The shell's page for one request: marked signed out when it carried no session cookie, so that a visitor's first
 * screen (the landing page, the login form) renders without waiting for GET /api/auth/user first.
 */
export function shellPage(html: string, hasSessionCookie: boolean): string {
  return hasSessionCookie ? html : html.replace('</head>', `    ${SIGNED_OUT_HINT}\n  </head>`);
}

/**
 * The language to prerender a visitor's page in: the one the browser used last (the shell keeps it in a cookie
 * beside its storage), else the first supported one of Accept-Language (the browser's own list, which the shell
 * reads too), else Japanese. If the shell starts in another language after all, it draws the page anew.
 */
export function visitorLanguage(req: express.Request): string {
  const remembered = readCookie(req.headers, LANGUAGE_COOKIE);
  if (remembered && (constants.languages as readonly string[]).includes(remembered)) return remembered;
  const accepted = req.acceptsLanguages(...constants.languages);
  return typeof accepted === 'string' ? accepted.slice(0, 2) : 'ja';
}

/**
 * The file to send for an app navigation: a prerendered page when there is one for this visitor, else index.html.
 * The shell's build writes them, one per language (shell/src/prerender): a visitor's landing page and login form,
 * the same for everyone in a language, carry their markup instead of waiting for the scripts to draw it; a signage
 * page (a member's or not, any query) carries the player's loading frame, so that a screen shows it from the first
 * paint instead of the site's light splash, until the player draws over it.
 */
export function pageFile(staticDir: string, req: express.Request, hasSession: boolean): string {
  if (signageFileId(req.path) !== undefined) {
    return path.join(staticDir, 'prerendered', visitorLanguage(req), `${SIGNAGE_FRAME}.html`);
  }
  const name = (PRERENDERED_PAGES as Record<string, string>)[req.path];
  const hasQuery = req.originalUrl.includes('?'); // a query may change the page (e.g. /login?next=...)
  if (!name || hasSession || hasQuery) return path.join(staticDir, 'index.html');
  return path.join(staticDir, 'prerendered', visitorLanguage(req), `${name}.html`);
}

/**
 * `read(file)` of a file, made again only when the file changes on disk (a rebuild): the shell's pages and the
 * player's manifest are read per request otherwise. A file that cannot be read rejects, and is tried again next time.
 */
export function fileCache<T>(read: (text: string) => T) {
  const cache = new Map<string, { mtimeMs: number; value: T }>();
  return async (file: string): Promise<T> => {
    const { mtimeMs } = await fs.promises.stat(file);
    const hit = cache.get(file);
    if (hit?.mtimeMs === mtimeMs) return hit.value;
    const value = read(await fs.promises.readFile(file, 'utf8'));
    cache.set(file, { mtimeMs, value });
    return value;
  };
}
