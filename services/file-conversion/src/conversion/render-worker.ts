// Runs in a worker_thread: pdfjs parses and draws here so a hostile PDF can stall or exhaust only this thread.
// Kept free of runtime imports from sibling files except erasable types, so Node runs it with its own type stripping.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { Canvas } from '@napi-rs/canvas';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentLoadingTask, PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import type { ConversionErrorCode } from './errors.ts';
import type { FromWorker, PageRenderSettings, ToWorker } from './render-protocol.ts';

const port = parentPort;
if (!port) throw new Error('render-worker must run in a worker thread');

const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const assets = {
  cMapUrl: `${join(pdfjsRoot, 'cmaps')}/`,
  cMapPacked: true,
  standardFontDataUrl: `${join(pdfjsRoot, 'standard_fonts')}/`,
  wasmUrl: `${join(pdfjsRoot, 'wasm')}/`,
  iccUrl: `${join(pdfjsRoot, 'iccs')}/`,
};
sharp.cache(false);

class PageError extends Error {
  code: ConversionErrorCode;
  constructor(code: ConversionErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

// pdfjs reports an image above maxImageSize only as a warning and draws the page without it; we refuse instead,
// so the warning is caught here. Other warnings are about the file, not us: kept out of the service log.
let imageTooLarge = false;
console.warn = (...args: unknown[]) => {
  if (String(args[0]).includes('Image exceeded maximum allowed size')) imageTooLarge = true;
};
console.log = console.warn;
console.info = () => {};

let doc: PDFDocumentProxy | undefined;
let task: PDFDocumentLoadingTask | undefined;
let jobId = -1;
let chain: Promise<unknown> = Promise.resolve();

function post(msg: FromWorker, transfer: ArrayBuffer[] = []) {
  port?.postMessage(msg, transfer);
}

function errorCode(err: unknown): ConversionErrorCode {
  if (err instanceof PageError) return err.code;
  const name = (err as { name?: string })?.name;
  if (name === 'PasswordException') return 'FILE_ENCRYPTED';
  return 'FILE_CORRUPT';
}

async function openDoc(path: string, maxImagePixels: number) {
  const data = new Uint8Array(await readFile(path));
  // pdfjs 6 compiles PDF functions without eval, so the old isEvalSupported switch no longer exists.
  task = pdfjs.getDocument({
    data,
    ...assets,
    maxImageSize: maxImagePixels,
    // Node has no FontFace: glyphs are drawn as paths; fonts that are not embedded fall back to system fonts
    // (fonts-noto-cjk for Japanese) through the canvas.
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    stopAtErrors: false,
    // Never fetch anything: all assets above are local paths.
    useWorkerFetch: false,
  });
  doc = await task.promise;
  return doc.numPages;
}

interface Drawn {
  pageNumber: number;
  width: number;
  height: number;
  pixels: Buffer;
}

async function drawPage(page: PDFPageProxy, s: PageRenderSettings): Promise<Drawn> {
  const { pageNumber } = page;
  const base = page.getViewport({ scale: 1 });
  const long = Math.max(base.width, base.height);
  const short = Math.min(base.width, base.height);
  if (!(short > 0) || !Number.isFinite(long))
    throw new PageError('FILE_PAGE_TOO_LARGE', `page ${pageNumber} has no area`);
  if (long / short > s.maxAspectRatio) {
    throw new PageError(
      'FILE_PAGE_TOO_LARGE',
      `page ${pageNumber} is ${Math.round(long / short)} times longer than wide (limit ${s.maxAspectRatio})`,
    );
  }
  const viewport = page.getViewport({ scale: s.maxLongSide / long });
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.round(viewport.height));
  const canvas = new Canvas(width, height);
  imageTooLarge = false;
  await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport, background: 'white' }).promise;
  if (imageTooLarge) {
    throw new PageError('FILE_IMAGE_TOO_LARGE', `page ${pageNumber} holds an image above the pixel limit`);
  }
  return { pageNumber, width, height, pixels: canvas.data() };
}

async function pageText(page: PDFPageProxy): Promise<string> {
  const content = await page.getTextContent();
  let text = '';
  for (const item of content.items) {
    if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
  }
  return text.trim();
}

async function encode(d: Drawn, s: PageRenderSettings) {
  // The canvas is opaque (white background), so its premultiplied RGBA equals plain RGBA.
  const input = () => sharp(d.pixels, { raw: { width: d.width, height: d.height, channels: 4 } }).removeAlpha();
  const [webp, thumb] = await Promise.all([
    input().webp({ quality: s.webpQuality, effort: s.webpEffort }).toBuffer(),
    input()
      .resize({ width: Math.min(s.thumbnailWidth, d.width) })
      .webp({ quality: s.webpQuality, effort: s.webpEffort })
      .toBuffer({ resolveWithObject: true }),
  ]);
  // Own, exactly sized copies so their buffers can be transferred rather than cloned.
  const page = {
    pageNumber: d.pageNumber,
    width: d.width,
    height: d.height,
    webp: new Uint8Array(webp),
    thumbnail: new Uint8Array(thumb.data),
    thumbnailWidth: thumb.info.width,
    thumbnailHeight: thumb.info.height,
  };
  return page;
}

port.on('message', (msg: ToWorker) => {
  if (msg.type === 'open') {
    jobId = msg.jobId;
    chain = chain
      .then(() => openDoc(msg.path, msg.maxImagePixels))
      .then(
        (numPages) => post({ type: 'opened', jobId: msg.jobId, numPages }),
        (err) => post({ type: 'error', jobId: msg.jobId, code: errorCode(err), message: String(err?.message ?? err) }),
      );
  } else if (msg.type === 'render') {
    // pdfjs works on one page at a time (this thread); sharp encodes on its own threads. So the page's text is
    // read after its pixels are handed to sharp, not before: the encode overlaps the text extraction, and the next
    // page draws while earlier ones encode.
    const pageNumber = msg.pageNumber;
    const opened = chain.then(() => {
      if (!doc) throw new PageError('FILE_CORRUPT', 'document not open');
      return doc.getPage(pageNumber);
    });
    const drawn = opened.then((page) => drawPage(page, msg.settings));
    const encoded = drawn.then((d) => encode(d, msg.settings));
    const text = drawn.then(async () => pageText(await opened));
    const settled = Promise.allSettled([opened, drawn, text]).then(async () => {
      const page = await opened.catch(() => undefined);
      page?.cleanup();
    });
    chain = settled;
    encoded.catch(() => {}); // reported below
    Promise.all([encoded, text]).then(
      ([page, t]) =>
        post({ type: 'page', jobId: msg.jobId, page: { ...page, text: t } }, [
          page.webp.buffer as ArrayBuffer,
          page.thumbnail.buffer as ArrayBuffer,
        ]),
      (err) => post({ type: 'error', jobId: msg.jobId, code: errorCode(err), message: String(err?.message ?? err) }),
    );
  } else if (msg.type === 'close') {
    chain = chain
      .then(() => task?.destroy())
      .catch(() => {})
      .then(() => {
        doc = undefined;
        task = undefined;
        if (jobId === msg.jobId) jobId = -1;
        post({ type: 'closed', jobId: msg.jobId });
      });
  }
});
