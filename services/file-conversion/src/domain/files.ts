import type { FileStatus } from '@pagecast/contracts';

/** Publishing needs a converted file: not processing, not disabled (spec point 2, publish settings hidden then). */
export function canPublish(status: FileStatus): boolean {
  return status === 'private';
}

/**
 * 00:00 Asia/Tokyo on the 1st of `now`'s month: the dashboard's monthly sums count from here, as billing's Points
 * screen does (Japan is UTC+9 all year, no daylight saving time).
 */
export function startOfMonth(now: Date): Date {
  const tokyo = new Date(now.getTime() + 9 * 3600_000);
  return new Date(Date.UTC(tokyo.getUTCFullYear(), tokyo.getUTCMonth(), 1) - 9 * 3600_000);
}

/** Object keys in storage. Page images are content-addressed, so one object may serve several files. */
export const storageKeys = {
  original: (fileId: string) => `originals/${fileId}`,
  /** a converted video's playable file (kept or transcoded), served with Range */
  video: (fileId: string) => `videos/${fileId}`,
  /** its watermarked preview clip, the only video a member without a licence is sent */
  videoPreview: (fileId: string) => `videos/${fileId}-preview`,
  page: (hash: string) => `pages/${hash}.webp`,
  /** a preview rendered from a page image (cached: the page is content-addressed, so the preview never changes) */
  preview: (hash: string, size: 'thumb' | 'page') => `previews/${hash}-${size}.webp`,
};

/** A file on sale in the marketplace: converted, published, priced. Only such a file has previews. */
export function isOnSale(f: { isPublished: boolean; status: string; publishPrice: number | null }): boolean {
  return f.isPublished && f.status === 'private' && f.publishPrice != null;
}

/** URL path of a page image: '/media/<hash>.webp' (immutable). */
export function mediaPath(hash: string): string {
  return `/media/${hash}.webp`;
}

/** The content hash in a media key '<sha256>.webp', or undefined when the key is not one. */
export function hashFromMediaKey(key: string): string | undefined {
  const m = /^([0-9a-f]{64})\.webp$/.exec(key);
  return m?.[1];
}
