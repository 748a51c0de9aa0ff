// Which files show a page image (content-addressed: one image may belong to several files), for its access decision.
import { LRUCache } from 'lru-cache';
import type { FilesRepo } from './files';

/** How long which files show an image is remembered (a refusal always reads afresh). */
const IMAGE_FILES_MEMO_MS = 5_000;
const IMAGE_FILES_KEPT = 10_000;

export type ImageFile = Awaited<ReturnType<FilesRepo['pagesShowing']>>[number];

/**
 * The files (and their owners) that show an image, remembered a few seconds: ten thousand screens fetching a pushed
 * playlist ask about the same few images, and the query scans on FerretDB. Forgotten at once when a file is deleted
 * here (`forget`); a file deleted by another replica of this service (README, "Replicas") is not forgotten here, so a
 * remembered list counts only while every file on it still exists, else it is read afresh. Whether a file exists is
 * asked of `fileOf`: the files every instance holds in memory (screen-views.ts), forgotten on every instance by the
 * deletion's event; a read by `_id` per image check before, one for each image every display fetched (2,957 in a
 * 3-minute run of 1,000 displays). The caller reads afresh before it refuses on a remembered list (a file converted
 * a moment ago shows it too).
 */
export function createImageFiles(
  files: Pick<FilesRepo, 'pagesShowing'>,
  /** the file (null: none), from memory when held */
  fileOf: (id: string) => Promise<unknown>,
) {
  const memo = new LRUCache<string, ImageFile[]>({ max: IMAGE_FILES_KEPT, ttl: IMAGE_FILES_MEMO_MS });
  return {
    async get(hash: string, fresh: boolean): Promise<{ files: ImageFile[]; remembered: boolean }> {
      const hit = fresh ? undefined : memo.get(hash);
      if (hit) {
        const ids = [...new Set(hit.map((f) => f.fileId))];
        if ((await Promise.all(ids.map(fileOf))).every((f) => f !== null)) return { files: hit, remembered: true };
      }
      const showing = await files.pagesShowing(hash);
      memo.set(hash, showing);
      return { files: showing, remembered: false };
    },
    /** A deleted file's images: read afresh from now on. */
    forget(hashes: readonly string[]): void {
      for (const hash of hashes) memo.delete(hash);
    },
  };
}
export type ImageFiles = ReturnType<typeof createImageFiles>;
