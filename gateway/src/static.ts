import fs from 'node:fs';
import path from 'node:path';
import {
  constants,
  LANGUAGE_COOKIE,
  PLAYER_PAGE,
  PRERENDERED_PAGES,
  SESSION_COOKIE,
  SESSION_HINT_META,
  SIGNAGE_FRAME,
  signageFileId,
} from '@pagecast/contracts';
import express from 'express';
import { readCookie } from './cookies';
import { LEAN_MANIFEST, MANIFEST, remoteApps } from './remotes';

const IMMUTABLE = 'public, max-age=31536000, immutable';
// rspack names built assets like main.3f9a1c2e.js or 123.3f9a1c2e.chunk.css: the hash makes them immutable.
const HASHED = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;

/** Cache policy by file name: entry points are revalidated every time, content-hashed files cached forever. */
export function cacheControlFor(filePath: string): string {
  const base = path.basename(filePath);
  if (base === 'index.html' || base.startsWith('mf-manifest') || base.startsWith('mf-stats')) return 'no-cache';
  if (base.startsWith('remoteEntry')) return 'no-cache';
  if (HASHED.test(base)) return IMMUTABLE;
  return 'no-cache';
}

const staticOptions = {
  index: false as const,
  cacheControl: false,
  etag: true,
  setHeaders(res: express.Response, filePath: string) {
    res.setHeader('Cache-Control', cacheControlFor(filePath));
    // the player's service worker lives under /remotes/player/ but must control /signage/ pages
    if (path.basename(filePath) === 'sw.js') res.setHeader('Service-Worker-Allowed', '/');
  },
};

/**
 * Source maps are never served (issue 35: they published our sources): a production build keeps them out of dist/
 * (packages/federation), and one that is there all the same (a development build, a copied folder) is a 404. The
 * path is read decoded, as express.static reads it (`main.js%2Emap`).
 */
export const refuseSourceMaps: express.RequestHandler = (req, res, next) => {
  let file: string;
  try {
    file = decodeURIComponent(req.path);
  } catch {
    return next(); // express.static answers the malformed path
  }
  if (!/\.map$/i.test(file)) return next();
  res.status(404).type('text/plain').set('Cache-Control', 'no-store').send('Not found\n');
};

/** What the front-end build writes a `.br` copy of (packages/federation, PrecompressPlugin). */
const PRECOMPRESSED = /\.(js|css|json|svg)$/;

/**
 * Sends the build's brotli copy of a file (`<file>.br`, compressed at brotli's best quality) to a browser that accepts
 * brotli, with the file's own type and cache policy; anything else falls through to express.static, and to the
 * gateway's on-the-fly compression, which skips a response that is already encoded.
 */
export function precompressed(dir: string): express.RequestHandler {
  const root = path.resolve(dir);
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !PRECOMPRESSED.test(req.path)) return next();
    let relative: string;
    try {
      relative = decodeURIComponent(req.path);
    } catch {
      return next(); // express.static answers the malformed path
    }
    const file = path.join(root, relative);
    if (!file.startsWith(root + path.sep) || relative.includes('\0')) return next();
    // the answer depends on Accept-Encoding either way: a shared cache must keep both
    res.vary('Accept-Encoding');
    if (req.acceptsEncodings('br') !== 'br') return next();
    fs.stat(`${file}.br`, (err, stat) => {
      if (err || !stat.isFile()) return next();
      res.type(path.extname(file));
      res.setHeader('Content-Encoding', 'br');
      staticOptions.setHeaders(res, file);
      res.sendFile(`${file}.br`, { etag: true, lastModified: true, cacheControl: false }, (sendErr) => {
        if (sendErr && !res.headersSent) next(sendErr);
      });
    });
  };
}

const notBuilt = (what: string, workspace: string) =>
  `Pagecast: the ${what} is not built yet (missing ${workspace}/dist).\n` +
  'Run `npm run build` (or `npm start`, which builds what is missing), then reload this page.\n';

/** Serves each remote's dist at /remotes/<short>/, or a clear 503 when that remote has not been built. */
export function remotesRouter(remotesDir: string): express.Router {
  const router = express.Router();
  router.use('/remotes', refuseSourceMaps);
  for (const remote of remoteApps) {
    const dir = path.join(remotesDir, remote.workspace, 'dist');
    const serve = express.static(dir, staticOptions);
    const serveBrotli = precompressed(dir);
    router.use(`/remotes/${remote.short}`, (req, res, next) => {
      // Public code: a shell served from another origin (a team's own deployment) may load it.
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      if (!fs.existsSync(dir)) {
        res
          .status(503)
          .type('text/plain')
          .set('Cache-Control', 'no-store')
          .send(notBuilt(remote.name, remote.workspace));
        return;
      }
      serveBrotli(req, res, (brErr?: unknown) => {
        if (brErr) return next(brErr);
        serve(req, res, (err?: unknown) => {
          if (err) return next(err);
          res.status(404).type('text/plain').set('Cache-Control', 'no-store').send('Not found\n');
        });
      });
    });
  }
  return router;
}

/** The paths that belong to the single-page app: GET navigations outside /api, /media and /remotes, no file name. */
function isAppNavigation(req: express.Request): boolean {
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
function pageFile(staticDir: string, req: express.Request, hasSession: boolean): string {
  if (signageFileId(req.path) !== undefined) {
    return path.join(staticDir, 'prerendered', visitorLanguage(req), `${SIGNAGE_FRAME}.html`);
  }
  const name = (PRERENDERED_PAGES as Record<string, string>)[req.path];
  const hasQuery = req.originalUrl.includes('?'); // a query may change the page (e.g. /login?next=...)
  if (!name || hasSession || hasQuery) return path.join(staticDir, 'index.html');
  return path.join(staticDir, 'prerendered', visitorLanguage(req), `${name}.html`);
}

interface ManifestAssets {
  js?: { sync?: string[] };
  css?: { sync?: string[] };
}
interface RemoteManifest {
  metaData?: { remoteEntry?: { name?: string; path?: string } };
  exposes?: Array<{ name?: string; assets?: ManifestAssets }>;
}

const PLAYER_SHORT = remoteApps.find((r) => r.name === 'mf_player')?.short ?? 'player';

/**
 * The file name of `manifestUrl` in the player's dist/ when it is one of the player's manifests this gateway serves
 * from its build (the self-contained one or the lean one), else undefined.
 */
export function localPlayerManifest(manifestUrl: string): string | undefined {
  return [MANIFEST, LEAN_MANIFEST].find((name) => manifestUrl === `/remotes/${PLAYER_SHORT}/${name}`);
}

/**
 * What a player page (/signage/:id, /screen) needs before its first frame besides the shell, as <link rel="preload">
 * in its head: the player remote's manifest and, when this gateway serves that remote from `remotesDir`, the remote's
 * entry and the chunks of its './routes'. The shell would find each only after the one before it had arrived and run
 * (remotes.json, then the manifest, then the entry): on a slow link those were three round trips before the player
 * could even ask for the file (issue 14). A remote served from elsewhere gets its manifest preloaded only.
 */
export function playerHints(manifestUrl: string, builtHere: RemoteManifest | undefined): string {
  // the federation runtime reads the manifest with fetch(url, {}): a CORS request, as crossorigin="anonymous" says
  const links = [`<link rel="preload" href="${escapeAttr(manifestUrl)}" as="fetch" crossorigin="anonymous">`];
  const local = localPlayerManifest(manifestUrl) ? builtHere : undefined;
  if (local) {
    const base = manifestUrl.slice(0, manifestUrl.lastIndexOf('/') + 1);
    const entry = local.metaData?.remoteEntry;
    const routes = local.exposes?.find((e) => e.name === 'routes')?.assets;
    const scripts = [...(entry?.name ? [`${entry.path ?? ''}${entry.name}`] : []), ...(routes?.js?.sync ?? [])];
    // low priority, as the shell's own preloads (packages/federation): the page's splash does not wait for them
    for (const file of scripts) {
      links.push(`<link rel="preload" href="${escapeAttr(base + file)}" as="script" fetchpriority="low">`);
    }
    for (const file of routes?.css?.sync ?? []) {
      links.push(`<link rel="preload" href="${escapeAttr(base + file)}" as="style">`);
    }
  }
  return links.join('');
}

/**
 * The remotes' list, which the shell's entry reads at once (shell/src/federation/remotes.ts), preloaded: the browser
 * asks for it while it parses the page, beside the framework's scripts, instead of once the entry has arrived and run.
 * It must be the entry's own fetch() again (same-origin credentials: crossorigin="anonymous"), or it is read twice.
 * The entry's other first reads (the user, a player's file and pages) are not preloaded: measured, they took
 * connections from the scripts (six per origin over HTTP/1.1) and the first screen came no sooner (issue 14).
 */
export const REMOTES_HINT = '<link rel="preload" href="/remotes.json" as="fetch" crossorigin="anonymous">';

/** language → the script files of its catalogue, as the shell's build lists them (dist/catalogues.json) */
export type CatalogueFiles = Record<string, string[]>;

/**
 * The catalogue the page will start in, preloaded: the shell's entry asks for it only once it has run (i18n's
 * preloadCatalogue), and no first screen is drawn without it. The language is the visitor's as the gateway reads it
 * (visitorLanguage), which is the one the shell picks unless the browser stored another without the cookie. Japanese
 * is bundled, so it lists none.
 */
export function catalogueHints(files: CatalogueFiles | undefined, language: string): string {
  return (files?.[language] ?? [])
    .filter((file) => file.endsWith('.js'))
    .map((file) => `<link rel="preload" href="/${escapeAttr(file)}" as="script" fetchpriority="low">`)
    .join('');
}

const escapeAttr = (value: string) => value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * `read(file)` of a file, made again only when the file changes on disk (a rebuild): the shell's pages and the
 * player's manifest are read per request otherwise. A file that cannot be read rejects, and is tried again next time.
 */
function fileCache<T>(read: (text: string) => T) {
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

export interface ShellOptions {
  /** the player remote's manifest URL, as /remotes.json lists it */
  playerManifest?: string;
  /** where this gateway serves the remotes' builds from (REMOTES_DIR) */
  remotesDir?: string;
}

/** The shell's build at /, with the SPA fallback to index.html. */
export function shellRouter(staticDir: string, options: ShellOptions = {}): express.Router {
  const router = express.Router();
  const index = path.join(staticDir, 'index.html');
  const readPage = fileCache((html) => ({ member: shellPage(html, true), visitor: shellPage(html, false) }));
  const page = async (file: string, hasSession: boolean) => (await readPage(file))[hasSession ? 'member' : 'visitor'];
  const readManifest = fileCache((json) => JSON.parse(json) as RemoteManifest);
  const player = remoteApps.find((r) => r.name === 'mf_player');
  // the manifest /remotes.json names, read from this gateway's build when it serves that one (the lean one by default)
  const localManifest = options.playerManifest ? localPlayerManifest(options.playerManifest) : undefined;
  const playerManifestFile =
    options.remotesDir && localManifest
      ? path.join(options.remotesDir, player?.workspace ?? 'mf-player', 'dist', localManifest)
      : undefined;
  const readCatalogues = fileCache((json) => JSON.parse(json) as CatalogueFiles);
  const cataloguesFile = path.join(staticDir, 'catalogues.json');
  const hintsFor = async (req: express.Request): Promise<string> => {
    // not built with the list (a development build): the entry asks for its catalogue itself
    const catalogues = await readCatalogues(cataloguesFile).catch(() => undefined);
    return REMOTES_HINT + catalogueHints(catalogues, visitorLanguage(req)) + (await remoteHintsFor(req));
  };
  const remoteHintsFor = async (req: express.Request): Promise<string> => {
    if (!options.playerManifest || !PLAYER_PAGE.test(req.path)) return '';
    // not built (the remote's route shows its fallback) or unreadable: the manifest's preload only
    const built = playerManifestFile ? await readManifest(playerManifestFile).catch(() => undefined) : undefined;
    return playerHints(options.playerManifest, built);
  };
  router.use(refuseSourceMaps, precompressed(staticDir), express.static(staticDir, staticOptions));
  router.use(async (req, res, next) => {
    if (!isAppNavigation(req)) return next();
    const hasSession = readCookie(req.headers, SESSION_COOKIE) !== undefined;
    let html: string;
    try {
      html = await page(pageFile(staticDir, req, hasSession), hasSession);
    } catch {
      try {
        // no prerendered page (a development build writes none): the page the scripts draw
        html = await page(index, hasSession);
      } catch {
        res.status(503).type('text/plain').set('Cache-Control', 'no-store').send(notBuilt('shell', 'shell'));
        return;
      }
    }
    const hints = await hintsFor(req);
    if (hints) html = html.replace('</head>', `${hints}</head>`);
    // the page differs with the cookies (session, language) and the browser's languages: a shared cache must keep
    // each (res.send adds the ETag and answers 304 to a matching revalidation)
    res.set({ 'Cache-Control': 'no-cache', Vary: 'Cookie, Accept-Language' }).type('html').send(html);
  });
  return router;
}
