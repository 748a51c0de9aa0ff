// The front end at the gateway: the remotes' builds under /remotes/<name>/, the shell's at / with its single-page
// app fallback; page-hints.ts writes a page's preloads, shell-page.ts picks its file.
import fs from 'node:fs';
import path from 'node:path';
import { PLAYER_PAGE, SESSION_COOKIE } from '@pagecast/contracts';
import compression from 'compression';
import express from 'express';
import { readCookie } from './cookies';
import {
  type CatalogueFiles,
  catalogueHints,
  localPlayerManifest,
  playerHints,
  REMOTES_HINT,
  type RemoteManifest,
} from './page-hints';
import { remoteApps, type resolveRemotes } from './remotes';
import { fileCache, isAppNavigation, pageFile, shellPage, visitorLanguage } from './shell-page';

export {
  type CatalogueFiles,
  catalogueHints,
  localPlayerManifest,
  playerHints,
  REMOTES_HINT,
} from './page-hints';
export { shellPage, visitorLanguage } from './shell-page';

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
 * Source maps are never served (they published our sources): a production build keeps them out of dist/
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

/** The front end on `app`: the remotes' builds, their manifest URLs, and the shell with its SPA fallback. */
export function mountFrontEnd(
  app: express.Express,
  remotes: ReturnType<typeof resolveRemotes>,
  dirs: { staticDir: string; remotesDir: string },
) {
  app.use(compression());
  app.get('/remotes.json', (_req, res) => {
    res.set('Cache-Control', 'no-cache').json(remotes);
  });
  app.use(remotesRouter(dirs.remotesDir));
  app.use(shellRouter(dirs.staticDir, { playerManifest: remotes.mf_player, remotesDir: dirs.remotesDir }));
}
