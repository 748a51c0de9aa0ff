import { createHash } from 'node:crypto';
import { ConversionError } from './errors.ts';
import { type ConversionLimits, defaultEncode, defaultLimits, type EncodeSettings } from './limits.ts';
import type { RenderPool, RenderSlot } from './pool.ts';
import type { FromWorker, PageRenderSettings, WorkerPage } from './render-protocol.ts';

/** One finished page, handed to the caller as soon as it is encoded (pages may arrive out of order). */
export interface RenderedPage {
  /** 1-based. */
  pageNumber: number;
  /** Pages in the whole document (known once it is opened), so callers can show progress as N of M. */
  pageCount: number;
  width: number;
  height: number;
  webp: Buffer;
  /** sha256 hex of the WebP bytes: an immutable storage key. */
  sha256: string;
  thumbnail: { webp: Buffer; width: number; height: number; sha256: string };
  /** The page's text (pdfjs getTextContent), for the copyright check. */
  text: string;
}

/** What stays of a page once delivered: no pixels. */
export type PageSummary = Omit<RenderedPage, 'webp' | 'thumbnail' | 'pageCount'> & {
  bytes: number;
  thumbnail: { width: number; height: number; sha256: string; bytes: number };
};

export type OnPage = (page: RenderedPage) => void | Promise<void>;

export interface RenderPdfOptions {
  pool: RenderPool;
  limits?: Partial<ConversionLimits>;
  encode?: Partial<EncodeSettings>;
  /** Stops the job (e.g. the file's time limit); the reason should be a ConversionError. */
  signal?: AbortSignal;
  /** Pages encoded but not yet through onPage, at most (bounds memory when the consumer is slow). */
  maxBufferedPages?: number;
  /**
   * Let idle workers of the pool draw pages of this document too (default: no). Each such worker parses the file
   * and loads its fonts again: measured on 2 busy cores (ISO-IEC-29500-3.pdf, 46 pages), 2 workers on one file
   * took 1.21x the CPU time and 1.34x the wall time of 1 worker, so the pool's workers serve different files.
   */
  spreadPages?: boolean;
}

let nextJobId = 1;

/**
 * Renders every page of a PDF on the worker pool: the first worker opens the file and reports the page count
 * (checked before anything is drawn), then idle workers join and pages are handed out one at a time.
 * onPage is called serially, in completion order; the promise resolves once every page went through it.
 */
export function renderPdf(
  pdfPath: string,
  opts: RenderPdfOptions,
  onPage: OnPage,
): Promise<{ pageCount: number; pages: PageSummary[] }> {
  const limits = { ...defaultLimits, ...opts.limits };
  const enc = { ...defaultEncode, ...opts.encode };
  const settings: PageRenderSettings = {
    maxLongSide: limits.maxLongSide,
    maxAspectRatio: limits.maxAspectRatio,
    webpQuality: enc.webpQuality,
    webpEffort: enc.webpEffort,
    thumbnailWidth: enc.thumbnailWidth,
  };
  const { pool } = opts;
  const jobId = nextJobId++;
  const maxBuffered = opts.maxBufferedPages ?? pool.size * 2;
  const perWorker = 2; // one drawing, one encoding

  return new Promise((resolve, reject) => {
    const slots = new Map<RenderSlot, { ready: boolean; outstanding: number }>();
    let pageCount = 0;
    let nextPage = 1;
    let inFlight = 0; // sent to a worker, not yet through onPage
    let delivered = 0;
    let finished = false;
    let delivery: Promise<void> = Promise.resolve();
    const summaries: PageSummary[] = [];

    const fail = (err: unknown) => {
      if (finished) return;
      finished = true;
      opts.signal?.removeEventListener('abort', onAbort);
      for (const [slot, st] of slots) {
        // A worker with work in progress may be stuck: replace it. An idle one is closed and reused.
        if (st.outstanding > 0 || !st.ready || slot.dead) pool.discard(slot);
        else closeAndRelease(slot);
      }
      slots.clear();
      reject(err);
    };
    const onAbort = () => fail(opts.signal?.reason ?? new ConversionError('FILE_CONVERSION_TIMEOUT', 'aborted'));
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    const closeAndRelease = (slot: RenderSlot) => {
      slot.onMessage = (msg) => {
        if (msg.type === 'closed' && msg.jobId === jobId) pool.release(slot);
      };
      slot.onCrash = () => pool.release(slot);
      slot.send({ type: 'close', jobId });
    };

    const succeed = () => {
      finished = true;
      opts.signal?.removeEventListener('abort', onAbort);
      for (const slot of slots.keys()) closeAndRelease(slot);
      slots.clear();
      summaries.sort((a, b) => a.pageNumber - b.pageNumber);
      resolve({ pageCount, pages: summaries });
    };

    const pump = () => {
      if (finished) return;
      for (const [slot, st] of slots) {
        while (st.ready && st.outstanding < perWorker && nextPage <= pageCount && inFlight < maxBuffered) {
          st.outstanding++;
          inFlight++;
          slot.send({ type: 'render', jobId, pageNumber: nextPage++, settings });
        }
      }
    };

    const recruit = () => {
      if (!opts.spreadPages) return;
      // Helpers only while there are more unassigned pages than the workers we hold can take.
      while (!finished && slots.size < Math.min(pool.size, pageCount) && pageCount - nextPage + 1 > slots.size) {
        const slot = pool.tryAcquire();
        if (!slot) return;
        attach(slot);
      }
    };

    const deliver = (wp: WorkerPage) => {
      const webp = Buffer.from(wp.webp.buffer, wp.webp.byteOffset, wp.webp.byteLength);
      const thumb = Buffer.from(wp.thumbnail.buffer, wp.thumbnail.byteOffset, wp.thumbnail.byteLength);
      const page: RenderedPage = {
        pageNumber: wp.pageNumber,
        pageCount,
        width: wp.width,
        height: wp.height,
        webp,
        sha256: createHash('sha256').update(webp).digest('hex'),
        thumbnail: {
          webp: thumb,
          width: wp.thumbnailWidth,
          height: wp.thumbnailHeight,
          sha256: createHash('sha256').update(thumb).digest('hex'),
        },
        text: wp.text,
      };
      delivery = delivery.then(async () => {
        if (finished) return;
        await onPage(page);
        const { webp: _w, thumbnail, pageCount: _n, ...rest } = page;
        summaries.push({
          ...rest,
          bytes: webp.byteLength,
          thumbnail: {
            width: thumbnail.width,
            height: thumbnail.height,
            sha256: thumbnail.sha256,
            bytes: thumb.byteLength,
          },
        });
        inFlight--;
        delivered++;
        if (delivered === pageCount) succeed();
        else {
          recruit();
          pump();
        }
      });
      delivery.catch(fail);
    };

    const attach = (slot: RenderSlot) => {
      const st = { ready: false, outstanding: 0 };
      slots.set(slot, st);
      slot.onCrash = (err) =>
        fail(
          new ConversionError('FILE_CONVERSION_FAILED', `the renderer failed on this file: ${err.message}`, {
            cause: err,
          }),
        );
      slot.onMessage = (msg: FromWorker) => {
        if (finished || msg.jobId !== jobId) return;
        if (msg.type === 'error') return fail(new ConversionError(msg.code, msg.message));
        if (msg.type === 'opened') {
          if (pageCount === 0) {
            if (msg.numPages > limits.maxPages) {
              return fail(
                new ConversionError(
                  'FILE_TOO_MANY_PAGES',
                  `${msg.numPages} pages; at most ${limits.maxPages} are accepted`,
                ),
              );
            }
            if (msg.numPages < 1) return fail(new ConversionError('FILE_CORRUPT', 'the PDF has no pages'));
            pageCount = msg.numPages;
            recruit();
          }
          st.ready = true;
          pump();
        } else if (msg.type === 'page') {
          st.outstanding--;
          deliver(msg.page);
          pump();
        }
      };
      slot.send({ type: 'open', jobId, path: pdfPath, maxImagePixels: limits.maxImagePixels });
    };

    pool.acquire().then((slot) => {
      if (finished) pool.release(slot);
      else attach(slot);
    }, fail);
  });
}
