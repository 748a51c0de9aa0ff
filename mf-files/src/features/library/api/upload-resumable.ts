// Photos and videos (up to 2 GiB) through the resumable upload, POST/HEAD/PATCH /api/files/uploads (tus 1.0), with
// tus-js-client: sent in chunks, retried with growing delays after a dropped connection, resumed from where the
// server says after a page reload (the upload's address is kept in localStorage under the file's fingerprint).
import { constants, type FileSummary, isMediaKind, uploadKindOf } from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';
import { type DetailedError, type HttpResponse, Upload } from 'tus-js-client';
import type { UploadFileInput, UploadProgress } from './upload-file';

/** 24 MiB: three of the server's 8 MiB parts, and a call that ends well within the gateway's time-out. */
const CHUNK_BYTES = 24 * 1024 * 1024;
/** After a failure the next try waits longer each time (about four minutes in all), then the member is asked. */
const RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000, 120_000];

/** Whether a file goes through the resumable upload: a photo or a video by its name or type (the server decides). */
export function usesResumableUpload(file: File): boolean {
  return isMediaKind(uploadKindOf(file.name, file.type));
}

export interface ResumableEvents {
  onProgress(progress: UploadProgress): void;
  /** the connection dropped and the upload will be tried again after `delayMs` */
  onRetry?(delayMs: number): void;
}

function httpErrorOf(err: Error | DetailedError): Error {
  const res: HttpResponse | undefined = 'originalResponse' in err ? (err.originalResponse ?? undefined) : undefined;
  if (!res) return err;
  return new HttpError(res.getStatus(), '', res.getBody() ?? '');
}

/** The fields as Upload-Metadata (the same fields the multipart upload sends). */
function metadataOf(input: UploadFileInput): Record<string, string> {
  const metadata: Record<string, string> = {
    filename: input.file.name,
    title: input.title,
    displayDuration: String(input.displayDuration),
  };
  if (input.sale) {
    metadata.isPublished = 'true';
    metadata.publishPrice = String(input.sale.publishPrice);
    metadata.copyrightInfo = JSON.stringify(input.sale.copyrightInfo);
  }
  return metadata;
}

export function uploadResumable(
  input: UploadFileInput,
  events: ResumableEvents,
  signal?: AbortSignal,
): Promise<FileSummary> {
  return new Promise((resolve, reject) => {
    let attempt = 0;
    const upload = new Upload(input.file, {
      endpoint: constants.upload.resumablePath,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS_MS,
      metadata: metadataOf(input),
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress(sent, total) {
        attempt = 0;
        events.onProgress({ sent, total });
      },
      onShouldRetry(err, retryAttempt) {
        const status = err.originalResponse?.getStatus() ?? 0;
        // a refusal (4xx) stays one; a lost connection, a 5xx, a conflict or a lock is tried again
        const retry = status === 0 || status >= 500 || status === 409 || status === 423;
        if (retry) {
          attempt = retryAttempt;
          events.onRetry?.(RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)] ?? 0);
        }
        return retry;
      },
      onSuccess({ lastResponse }) {
        try {
          resolve(JSON.parse(lastResponse.getBody()) as FileSummary);
        } catch {
          reject(new HttpError(lastResponse.getStatus(), '', lastResponse.getBody() ?? ''));
        }
      },
      onError(err) {
        reject(httpErrorOf(err));
      },
    });
    signal?.addEventListener(
      'abort',
      () => {
        // a cancelled upload is removed on the server too (tus termination)
        void upload.abort(true).catch(() => {});
        reject(new DOMException('aborted', 'AbortError'));
      },
      { once: true },
    );
    void upload
      .findPreviousUploads()
      .then((previous) => {
        const last = previous[0];
        if (last) upload.resumeFromPreviousUpload(last);
        if (!signal?.aborted) upload.start();
      })
      .catch(() => upload.start());
  });
}
