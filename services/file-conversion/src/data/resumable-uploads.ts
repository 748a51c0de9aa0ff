import type { Readable } from 'node:stream';
import { type Options, S3Store } from '@tus/s3-store';
import { UploadSpool } from './upload-spool';

/** Where unfinished resumable uploads live in the bucket: `tus/<userId>/<uploadId>` (+ `.info`, `.part`). */
export const RESUMABLE_PREFIX = 'tus/';

/** The store key of a member's upload: the owner is part of the key, so nobody reaches another member's upload. */
export function resumableKey(userId: string, uploadId: string): string {
  return `${RESUMABLE_PREFIX}${userId}/${uploadId}`;
}

/** The upload id of a store key (the URL's last segment). */
export function uploadIdOfKey(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

type KvStore = NonNullable<Options['cache']>;

/**
 * No memory of the uploads' .info objects: another instance may finish or remove an upload, and a copy kept here
 * would still answer for it (the library's default cache did: a HEAD after another instance had finished the upload
 * said 200). Reading the small object again on each call costs little beside the chunk the call carries.
 */
const noCache: KvStore = {
  async get() {
    return undefined;
  },
  async set() {},
  async delete() {},
};

/**
 * Unfinished uploads on object storage (S3 multipart, through @tus/s3-store), so a resumed upload may reach any
 * instance. `deleteExpired` is the library's, limited to our prefix: the bucket also holds the service's own
 * multipart writes of originals, which are never ours to abort.
 */
export class ResumableStore extends S3Store {
  /** This instance's copy of the uploads whose chunks came through it (upload-spool.ts). */
  readonly spool: UploadSpool;

  constructor(opts: {
    endpoint: string;
    accessKey: string;
    secretKey: string;
    bucket: string;
    expiryMs: number;
  }) {
    super({
      // 8 MiB parts; the dialog sends 24 MiB chunks, a whole number of parts, so few bytes wait as an incomplete part
      partSize: 8 * 1024 * 1024,
      expirationPeriodInMilliseconds: opts.expiryMs,
      // expiry is our job (deleteExpired), not a bucket lifecycle rule reading tags
      useTags: false,
      cache: noCache,
      s3ClientConfig: {
        bucket: opts.bucket,
        endpoint: opts.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: opts.accessKey, secretAccessKey: opts.secretKey },
      },
    });
    this.spool = new UploadSpool();
  }

  /** A chunk goes to the store as before, and to this instance's copy of the upload as it passes. */
  override async write(src: Readable, id: string, offset: number): Promise<number> {
    const { stream, settle } = this.spool.tee(id, src, offset);
    try {
      const newOffset = await super.write(stream, id, offset);
      settle(newOffset);
      return newOffset;
    } catch (err) {
      settle(undefined);
      throw err;
    }
  }

  /**
   * tus termination (DELETE) and our removals: the library's own leaves the incomplete part (the bytes of a chunk
   * short of a whole S3 part) in the bucket.
   */
  override async remove(id: string): Promise<void> {
    try {
      await super.remove(id);
    } finally {
      await this.client.deleteObjects({
        Bucket: this.bucket,
        Delete: { Objects: [{ Key: id }, { Key: this.infoKey(id) }, { Key: this.partKey(id, true) }] },
      });
    }
  }

  /** Removes an upload (finished or not) and what it left; nothing when it is already gone. */
  async discard(id: string): Promise<void> {
    this.spool.drop(id);
    await this.remove(id).catch((err: unknown) => {
      // a finished upload has no multipart upload left to abort: its objects are removed all the same
      if ((err as { status_code?: number }).status_code !== 404) throw err;
    });
  }

  /**
   * Removes the uploads begun more than the expiry ago: found by their .info objects under our prefix (whose date is
   * the upload's start: they are written once), each removed through its recorded multipart upload id. Listing the
   * multipart uploads themselves is not used: MinIO lists them only for an exact key, and the bucket's other
   * multipart writes are not ours.
   */
  override async deleteExpired(): Promise<number> {
    const expiry = this.getExpiration();
    if (expiry === 0) return 0;
    let token: string | undefined;
    let removed = 0;
    do {
      const page = await this.client.listObjectsV2({
        Bucket: this.bucket,
        Prefix: RESUMABLE_PREFIX,
        ContinuationToken: token,
      });
      for (const object of page.Contents ?? []) {
        const key = object.Key;
        if (!key?.endsWith('.info') || !object.LastModified) continue;
        if (Date.now() <= object.LastModified.getTime() + expiry) continue;
        await this.discard(key.slice(0, -'.info'.length));
        removed += 1;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return removed;
  }
}
