import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, open, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { ConversionError, ConversionErrorCode } from './errors.ts';
import { type ConversionLimits, defaultEncode, defaultLimits, type EncodeSettings } from './limits.ts';
import { canIsolateNetwork } from './office-to-pdf.ts';
import type { RenderPool } from './pool.ts';
import { killGroup } from './process-group.ts';

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
  /** The page's text (MuPDF's structured text), for the copyright check. */
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
  /**
   * Pages drawn but not yet through onPage, at most: the renderer waits for a credit before each page, so a slow
   * consumer bounds both memory and the scratch files (a full-HD page is about 8 MB of raw pixels).
   */
  maxBufferedPages?: number;
  /** Parent of the job's scratch directory (default: the OS temp dir); nothing is left in it. */
  tmpDir?: string;
  /** 'auto' (default): the renderer runs without network when the system allows it. */
  isolateNetwork?: 'auto' | 'off';
}

const SCRIPT = fileURLToPath(new URL('./render-mupdf.js', import.meta.url));

/**
 * Renders every page of a PDF with MuPDF and encodes it with sharp, streaming pages to onPage (serially, in
 * completion order); resolves once every page went through it.
 *
 * MuPDF runs as its own process per document (`mutool run render-mupdf.js`), never inside this one: no network
 * (unshare -n), an address-space and a CPU-time limit (prlimit), its own process group killed on time-out, an
 * environment without the service's secrets, and a scratch directory removed afterwards. It checks the page count
 * before drawing anything, and each page's shape and image sizes before drawing that page.
 * Why MuPDF and not pdfjs (the earlier renderer): measured on this corpus, pdfjs took about 45 ms of CPU per page
 * to draw and extract text against about 15 ms for MuPDF, so the same sharp encoding could not keep up with the
 * mutool + sharp baseline (docs in services/file-conversion/README.md).
 */
export async function renderPdf(
  pdfPath: string,
  opts: RenderPdfOptions,
  onPage: OnPage,
): Promise<{ pageCount: number; pages: PageSummary[] }> {
  const limits = { ...defaultLimits, ...opts.limits };
  const enc = { ...defaultEncode, ...opts.encode };
  const { pool, signal } = opts;
  const aborted = () => signal?.reason ?? new ConversionError('FILE_CONVERSION_TIMEOUT', 'aborted');
  if (signal?.aborted) throw aborted();
  const slot = await raceAbort(pool.acquire(), signal, aborted, (late) => pool.release(late));
  let dir: string | undefined;
  try {
    dir = await mkdtemp(join(opts.tmpDir ?? tmpdir(), 'pagecast-pdf-'));
    const child = startRenderer(pdfPath, dir, limits, enc, pool.maxMemoryMb, opts.isolateNetwork ?? 'auto');
    slot.child = child;
    const exited = new Promise<string>((resolve) => {
      child.once('error', (err) => resolve(`not started: ${err.message}`)); // e.g. a sandbox tool missing
      child.once('close', (code, sig) => resolve(sig ? `signal ${sig}` : `exit code ${code}`));
    });
    try {
      const result = await drive(child, exited, dir, limits, enc, opts, aborted, onPage);
      await exited;
      return result;
    } catch (err) {
      killGroup(child);
      await exited;
      throw err;
    }
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
    pool.release(slot);
  }
}

function startRenderer(
  pdfPath: string,
  dir: string,
  limits: ConversionLimits,
  enc: EncodeSettings,
  maxMemoryMb: number,
  isolateNetwork: 'auto' | 'off',
): ChildProcess {
  const run = [
    'prlimit',
    `--as=${maxMemoryMb * 1024 * 1024}`,
    `--cpu=${Math.ceil(limits.fileTimeoutMs / 1000) + 1}`,
    '--',
    // MuJS's print goes through stdio, which buffers a pipe: line buffering lets each event out as it happens.
    'stdbuf',
    '-oL',
    'mutool',
    'run',
    SCRIPT,
    pdfPath,
    dir,
    String(limits.maxPages),
    String(limits.maxLongSide),
    String(limits.maxAspectRatio),
    String(limits.maxImagePixels),
    String(enc.thumbnailWidth),
  ];
  const [cmd, ...args] = isolateNetwork === 'auto' && canIsolateNetwork() ? ['unshare', '-n', '--', ...run] : run;
  return spawn(cmd as string, args, {
    detached: true, // its own process group, killed whole
    stdio: ['pipe', 'pipe', 'pipe'],
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
  });
}

type RendererMessage =
  | { type: 'opened'; numPages: number }
  | { type: 'page'; pageNumber: number; text: string }
  | { type: 'error'; code: string; message: string }
  | { type: 'done' };

function drive(
  child: ChildProcess,
  exited: Promise<string>,
  dir: string,
  limits: ConversionLimits,
  enc: EncodeSettings,
  opts: RenderPdfOptions,
  aborted: () => unknown,
  onPage: OnPage,
): Promise<{ pageCount: number; pages: PageSummary[] }> {
  const { signal } = opts;
  const window = Math.max(1, opts.maxBufferedPages ?? 3);
  return new Promise((resolve, reject) => {
    let finished = false;
    let pageCount = 0;
    let done = false;
    let delivered = 0;
    let delivery: Promise<void> = Promise.resolve();
    let stderr = '';
    const summaries: PageSummary[] = [];
    // Drawn pages are read into buffers reused across the document's pages (at most the window's worth): a fresh
    // 8 MB buffer per page made the garbage collector this process's largest cost after encoding.
    const spare: [Buffer, Buffer][] = [];
    const fullPageBytes = limits.maxLongSide * limits.maxLongSide * 3 + 64;
    const thumbnailBytes = enc.thumbnailWidth * Math.ceil(enc.thumbnailWidth * limits.maxAspectRatio + 1) * 3 + 64;

    const stop = () => {
      finished = true;
      signal?.removeEventListener('abort', onAbort);
      child.stdin?.end();
    };
    const fail = (err: unknown) => {
      if (finished) return;
      stop();
      reject(err);
    };
    const onAbort = () => fail(aborted());
    signal?.addEventListener('abort', onAbort, { once: true });
    const succeedIfComplete = () => {
      if (finished || !done || delivered !== pageCount) return;
      stop();
      summaries.sort((a, b) => a.pageNumber - b.pageNumber);
      resolve({ pageCount, pages: summaries });
    };

    child.stdin?.on('error', () => {}); // the renderer may end before it reads every credit
    const credit = () => {
      if (!finished) child.stdin?.write('next\n');
    };
    for (let i = 0; i < window; i++) credit();

    child.stderr?.on('data', (d: Buffer) => {
      if (stderr.length < 2000) stderr += d.toString();
    });
    void exited.then((how) => {
      // A renderer that ends before saying "done" crashed or hit a limit (memory, CPU time): the file caused it.
      if (!done) {
        const detail = stderr.trim().split('\n').slice(-2).join('; ');
        fail(
          new ConversionError(
            'FILE_CONVERSION_FAILED',
            `the renderer stopped on this file (${how})${detail ? `: ${detail}` : ''}`,
          ),
        );
      }
    });

    const onPageDrawn = (m: Extract<RendererMessage, { type: 'page' }>) => {
      const { pageNumber } = m;
      if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > pageCount) {
        return fail(new ConversionError('FILE_CONVERSION_FAILED', `the renderer sent page ${pageNumber}`));
      }
      const buffers = spare.pop() ?? [Buffer.allocUnsafeSlow(fullPageBytes), Buffer.allocUnsafeSlow(thumbnailBytes)];
      const encoded = Promise.all([
        readPixels(join(dir, `${pageNumber}-1.ppm`), buffers[0]),
        readPixels(join(dir, `${pageNumber}t-1.ppm`), buffers[1]),
      ])
        .then(([full, thumb]) => encodePage(full, thumb, limits, enc))
        .finally(() => spare.push(buffers));
      encoded.catch(() => {}); // reported through the delivery chain
      delivery = delivery.then(async () => {
        const e = await encoded;
        if (finished) return;
        const page: RenderedPage = {
          pageNumber,
          pageCount,
          width: e.width,
          height: e.height,
          webp: e.webp,
          sha256: sha256(e.webp),
          thumbnail: { webp: e.thumb, width: e.thumbWidth, height: e.thumbHeight, sha256: sha256(e.thumb) },
          text: typeof m.text === 'string' ? m.text.trim() : '',
        };
        await onPage(page);
        summaries.push({
          pageNumber,
          width: page.width,
          height: page.height,
          sha256: page.sha256,
          text: page.text,
          bytes: e.webp.byteLength,
          thumbnail: {
            width: e.thumbWidth,
            height: e.thumbHeight,
            sha256: page.thumbnail.sha256,
            bytes: e.thumb.byteLength,
          },
        });
        delivered++;
        credit();
        succeedIfComplete();
      });
      delivery.catch(fail);
    };

    const onLine = (line: string) => {
      if (finished || line.trim() === '') return;
      let m: RendererMessage;
      try {
        m = JSON.parse(line) as RendererMessage;
      } catch {
        return fail(new ConversionError('FILE_CONVERSION_FAILED', 'the renderer sent an unreadable line'));
      }
      if (m.type === 'opened') {
        // The renderer refuses too many pages itself, before drawing anything: here only a count that is no count.
        if (!(Number.isInteger(m.numPages) && m.numPages >= 1)) {
          return fail(new ConversionError('FILE_CONVERSION_FAILED', `the renderer sent ${m.numPages} pages`));
        }
        pageCount = m.numPages;
      } else if (m.type === 'page') {
        onPageDrawn(m);
      } else if (m.type === 'error') {
        const code = Object.hasOwn(ConversionErrorCode, m.code)
          ? (m.code as ConversionErrorCode)
          : 'FILE_CONVERSION_FAILED';
        fail(new ConversionError(code, String(m.message)));
      } else if (m.type === 'done') {
        done = true;
        succeedIfComplete();
      }
    };

    // Lines end at \n only (the renderer writes JSON, which has no raw newline inside a line).
    let buffered = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      buffered += chunk;
      let nl = buffered.indexOf('\n');
      while (nl >= 0) {
        onLine(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        nl = buffered.indexOf('\n');
      }
    });
  });
}

interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

/** Reads and removes one drawing, a binary PPM (P6, 8 bits), into buffer; the pixels returned are a view of it. */
async function readPixels(path: string, buffer: Buffer): Promise<Pixels> {
  const file = await open(path, 'r');
  let length: number;
  try {
    length = (await file.read(buffer, 0, buffer.length, 0)).bytesRead;
  } finally {
    await file.close();
  }
  await unlink(path);
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(buffer.subarray(0, 64).toString('latin1'));
  const width = Number(header?.[1]);
  const height = Number(header?.[2]);
  const data = buffer.subarray(header?.[0].length ?? 0, length);
  if (!header || !(width >= 1 && height >= 1) || length === buffer.length || data.length !== width * height * 3) {
    throw new ConversionError('FILE_CONVERSION_FAILED', 'the renderer wrote an unreadable image');
  }
  return { data, width, height };
}

/** Both drawings to WebP; the page's long side and the thumbnail's width are checked, being ours to promise. */
async function encodePage(full: Pixels, thumb: Pixels, limits: ConversionLimits, s: EncodeSettings) {
  if (
    Math.max(full.width, full.height) !== limits.maxLongSide ||
    thumb.width !== Math.min(s.thumbnailWidth, full.width)
  ) {
    throw new ConversionError('FILE_CONVERSION_FAILED', 'the renderer drew a page of an unexpected size');
  }
  const webp = (p: Pixels) =>
    sharp(p.data, { raw: { width: p.width, height: p.height, channels: 3 } })
      .webp({ quality: s.webpQuality, effort: s.webpEffort })
      .toBuffer();
  const [page, small] = await Promise.all([webp(full), webp(thumb)]);
  return {
    width: full.width,
    height: full.height,
    webp: page,
    thumb: small,
    thumbWidth: thumb.width,
    thumbHeight: thumb.height,
  };
}

function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}

/** Waits for p unless the signal fires first; a value that arrives too late is handed to onLate. */
function raceAbort<T>(
  p: Promise<T>,
  signal: AbortSignal | undefined,
  reason: () => unknown,
  onLate: (value: T) => void,
): Promise<T> {
  if (!signal) return p;
  return new Promise((resolve, reject) => {
    let gaveUp = false;
    const onAbort = () => {
      gaveUp = true;
      reject(reason());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        if (gaveUp) onLate(v);
        else resolve(v);
      },
      (err) => {
        signal.removeEventListener('abort', onAbort);
        if (!gaveUp) reject(err);
      },
    );
  });
}
