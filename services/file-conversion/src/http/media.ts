import { INTERNAL_MEDIA_ACCESS_PATH, type MediaAccessAnswer, MediaParams } from '@pagecast/contracts';
import { AppError, parseWith, requireIdentity } from '@pagecast/service-kit';
import { type Request, Router } from 'express';
import { hashFromMediaKey, storageKeys } from '../domain';
import type { ServiceContext } from '../context';
import type { TtlLru } from './access-cache';
import type { PlayerAccess } from './player-identity';

/** How long a licence holder's access is remembered (the licence may end early: expiry event, deletion). */
const LICENCE_CACHE_MS = 3_000;
/** How long the gateway may remember a refusal (a purchase or an assignment to a screen may follow). */
const REFUSAL_GRANT_MS = 2_000;

export const MEDIA_CACHE_CONTROL = 'private, max-age=31536000, immutable';
export const LICENCE_CACHE_CONTROL = 'private, no-cache';

/** Why a member may see an image: their own file, or an active licence; false: not at all. */
export type MediaAccess = 'owner' | 'licence' | false;

/**
 * GET /media/<sha256>.webp: a page image or thumbnail, only for the owner of a file that shows it or a holder of
 * an active licence for such a file (remembered at most 3 s, never past its end). Others get 404, as for an image
 * that does not exist.
 */
export function mediaRouter(
  ctx: ServiceContext,
  access: PlayerAccess,
  cache: TtlLru<MediaAccess>,
  showingMemo: TtlLru<string[]>,
): Router {
  const router = Router();
  const repo = ctx.data.files;

  /** The access and until when it is known (epoch ms): the cache entry's own end, so no answer outlives it. */
  const allowed = async (userId: string, hash: string): Promise<{ access: MediaAccess; until: number }> => {
    const cacheKey = `${userId}\u0000${hash}`;
    const now = Date.now();
    const hit = cache.entry(cacheKey, now);
    if (hit !== undefined) return { access: hit.value, until: hit.expires };
    const showing = await repo.pagesShowing(hash);
    if (showing.some((p) => p.ownerId === userId)) {
      cache.set(cacheKey, 'owner', now);
      return { access: 'owner', until: cache.entry(cacheKey, now)?.expires ?? now };
    }
    const end = showing.length
      ? await repo.activeLicenceEnd(userId, [...new Set(showing.map((p) => p.fileId))])
      : undefined;
    // A licence's yes is remembered briefly and never past its end: an ended licence stops the images within seconds.
    if (end) cache.set(cacheKey, 'licence', now, Math.min(LICENCE_CACHE_MS, end.getTime() - now));
    else cache.set(cacheKey, false, now);
    return { access: end ? 'licence' : false, until: cache.entry(cacheKey, now)?.expires ?? now };
  };

  /** The files that show an image: remembered briefly (`showingMemo`) or, with `fresh`, read now. */
  const filesShowing = async (hash: string, fresh: boolean): Promise<{ fileIds: string[]; remembered: boolean }> => {
    const memo = fresh ? undefined : showingMemo.get(hash);
    if (memo) return { fileIds: memo, remembered: true };
    const fileIds = [...new Set((await repo.pagesShowing(hash)).map((p) => p.fileId))];
    showingMemo.set(hash, fileIds);
    return { fileIds, remembered: false };
  };

  /**
   * A paired display reads an image only of a file assigned to its screen, as the screen's owner. Ten thousand
   * screens fetching a pushed playlist ask about the same few images: which files show one is remembered for a few
   * seconds (the query scans on FerretDB), and forgotten at once when a file is deleted here; what each screen may
   * read is remembered too (player-identity.ts). A remembered list
   * never refuses: a refusal is checked again against a fresh read (a file converted a moment ago shows it too).
   */
  const deviceReader = async (req: Request, hash: string): Promise<string> => {
    const remembered = await filesShowing(hash, false);
    try {
      return await access.userId(req, { fileIds: remembered.fileIds });
    } catch {
      if (!remembered.remembered) throw new AppError('NOT_FOUND');
    }
    const fresh = await filesShowing(hash, true);
    try {
      return await access.userId(req, { fileIds: fresh.fileIds });
    } catch {
      throw new AppError('NOT_FOUND');
    }
  };

  /** The caller's access to an image (the member's, or the display's as its screen's owner) and until when. */
  const decide = async (req: Request, hash: string) => {
    const member = req.device ? undefined : requireIdentity(req).userId;
    const userId = member ?? (await deviceReader(req, hash));
    return allowed(userId, hash);
  };

  // The gateway's check before it serves an image from its own cache: the same decision, no bytes (internal: the
  // gateway never routes /internal). A refusal is an answer, remembered briefly by the gateway.
  router.get(`${INTERNAL_MEDIA_ACCESS_PATH}/:key`, async (req, res) => {
    if (!req.device) requireIdentity(req);
    const hash = hashFromMediaKey(String(req.params.key));
    let answer: MediaAccessAnswer = { access: null, maxAgeMs: REFUSAL_GRANT_MS };
    if (hash) {
      try {
        const { access, until } = await decide(req, hash);
        const left = Math.max(0, until - Date.now());
        answer = access ? { access, maxAgeMs: left } : { access: null, maxAgeMs: Math.min(left, REFUSAL_GRANT_MS) };
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
      }
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json(answer);
  });

  router.get('/media/:key', async (req, res) => {
    if (!req.device) requireIdentity(req);
    const { key } = parseWith(MediaParams, req.params);
    const hash = hashFromMediaKey(key);
    if (!hash) throw new AppError('NOT_FOUND');
    const { access } = await decide(req, hash);
    if (!access) throw new AppError('NOT_FOUND');
    const etag = `"${key}"`;
    // A buyer's browser asks again each time (a cheap 304 while the licence lasts), so an ended licence shows nothing.
    res.setHeader('Cache-Control', access === 'owner' ? MEDIA_CACHE_CONTROL : LICENCE_CACHE_CONTROL);
    res.setHeader('ETag', etag);
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    const object = await ctx.data.storage.get(storageKeys.page(hash));
    if (!object) {
      res.removeHeader('Cache-Control');
      throw new AppError('NOT_FOUND');
    }
    res.setHeader('Content-Type', 'image/webp');
    res.setHeader('Content-Length', String(object.size));
    object.stream.on('error', (err) => {
      ctx.logger.warn({ err, key }, 'media stream failed');
      res.destroy(err);
    });
    object.stream.pipe(res);
  });

  return router;
}
