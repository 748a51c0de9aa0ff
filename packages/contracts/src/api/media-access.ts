import { z } from 'zod';

/**
 * File-conversion's internal access check for page images, asked by the gateway, which serves `GET /media/<key>`
 * from its own cache. NOT routed by the gateway (it routes only /api and /media): the gateway calls it
 * directly with the caller's signed identity header, a member's or a paired display's, exactly as it would forward
 * `GET /media/<key>`.
 *
 * `GET ${INTERNAL_MEDIA_ACCESS_PATH}/<key>` answers 200 with a MediaAccessAnswer and never any bytes: `access` is
 * why the caller may see the image (the same rule as `GET /media/<key>`: the owner of a file showing it, or an active
 * licence; a display reads as its screen's owner, only files assigned to its screen), or null when it may not (or the
 * key names no image). `maxAgeMs` is how long the gateway may remember this answer: an owner's yes up to 60 s, a
 * licence's at most 3 s and never past the licence's end, a refusal a few seconds. 401 without an identity.
 */
export const INTERNAL_MEDIA_ACCESS_PATH = '/internal/media-access';
export const internalMediaAccessPath = (key: string) => `${INTERNAL_MEDIA_ACCESS_PATH}/${encodeURIComponent(key)}`;

/**
 * File-conversion's page-image bytes for the gateway, which has decided with the access check above and asks for an
 * image's bytes once for all its callers: `GET ${INTERNAL_MEDIA_PATH}/<key>` answers 200 with the image (image/webp),
 * and makes no second decision. 401 without an identity (only the gateway signs one; it never routes /internal),
 * 404 `NOT_FOUND` for a key that names no stored image.
 */
export const INTERNAL_MEDIA_PATH = '/internal/media';
export const internalMediaPath = (key: string) => `${INTERNAL_MEDIA_PATH}/${encodeURIComponent(key)}`;

export const MediaAccessAnswer = z.object({
  access: z.enum(['owner', 'licence']).nullable(),
  maxAgeMs: z.number().int().nonnegative(),
});
export type MediaAccessAnswer = z.infer<typeof MediaAccessAnswer>;
