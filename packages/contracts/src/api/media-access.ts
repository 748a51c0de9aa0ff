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

/**
 * The same check for a paired display, over the display-read relay (`<DEVICE_READ_PREFIX>.mediaAccess`, core NATS,
 * answered by file-conversion; docs/device-socket.md): the frame's body names the image, the display's signed
 * identity travels as on every relayed call, and the answer is `{"status":200,"body":<MediaAccessAnswer>}`, decided
 * exactly as `GET ${INTERNAL_MEDIA_ACCESS_PATH}/<key>` decides for that display. A fleet's boot or a playlist edit
 * asks for every display and each of its images at once: the relay gathers those into a few NATS requests, where
 * each was an HTTP call of its own.
 */
export const DEVICE_MEDIA_ACCESS_CALL = 'mediaAccess';
export const DeviceMediaAccessRequest = z.object({ key: z.string().min(1).max(200) }).strict();
export type DeviceMediaAccessRequest = z.infer<typeof DeviceMediaAccessRequest>;

/**
 * File-conversion's internal access check for a video, asked by the gateway, which then reads the bytes from object
 * storage itself (one Node process on the byte path instead of two). NOT routed by the gateway: it calls it with the
 * caller's signed identity header, exactly as it would forward `GET /media/video/<id>` (or `.../preview`).
 *
 * `GET ${INTERNAL_VIDEO_ACCESS_PATH}/<id>` decides as `GET /media/video/<id>` does (the owner, a licence holder, a
 * display whose screen plays the file; a file on sale without a licence: refused) and
 * `GET ${INTERNAL_VIDEO_ACCESS_PATH}/<id>/preview` as `GET /media/video/<id>/preview` (any member while the file is on
 * sale: the watermarked clip only). A refusal is that route's error answer (401, 403, 404 with its code), which the
 * gateway sends on unchanged; 200 is a VideoAccessAnswer and never any bytes.
 */
export const INTERNAL_VIDEO_ACCESS_PATH = '/internal/video-access';
export const internalVideoAccessPath = (fileId: string, preview = false) =>
  `${INTERNAL_VIDEO_ACCESS_PATH}/${encodeURIComponent(fileId)}${preview ? '/preview' : ''}`;

export const VideoAccessAnswer = z.object({
  /**
   * A short-lived signed GET of the stored object (ranges asked with a Range header), for the gateway alone: never
   * sent to a browser, so it cannot outlive a revocation beyond `maxAgeMs`.
   */
  url: z.url(),
  size: z.number().int().nonnegative(),
  mimeType: z.string().min(1),
  /** the stored bytes' version, quoted (`"<sha256>"`): ETag, If-None-Match and If-Range */
  etag: z.string().min(1),
  /** what the browser is told (the video revalidates; a preview clip may be kept a while) */
  cacheControl: z.string().min(1),
  /** how long the gateway may reuse this answer (at most 60 s; a licence's at most 3 s and never past its end) */
  maxAgeMs: z.number().int().nonnegative(),
});
export type VideoAccessAnswer = z.infer<typeof VideoAccessAnswer>;
