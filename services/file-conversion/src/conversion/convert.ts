import { convertImage, type ImageHeader, readImageHeader } from './convert-image.ts';
import {
  convertVideo,
  type PlayableFile,
  type VideoProbe,
  type VideoResult,
  type VideoTimings,
} from './convert-video.ts';
import { ConversionError } from './errors.ts';
import { extractDocxText, joinPageTexts } from './extract-text.ts';
import { type ConversionLimits, defaultLimits, type EncodeSettings } from './limits.ts';
import { WarmOffice } from './office-server.ts';
import { type OfficePdf, officeToPdf } from './office-to-pdf.ts';
import { RenderPool } from './pool.ts';
import { type OnPage, type PageSummary, renderPdf } from './render-pdf.ts';
import { type DocumentKind, sniffFile } from './sniff.ts';
import { guardZip } from './zip-guard.ts';

export interface ConvertInput {
  /** The uploaded file on disk; it is read, never modified or moved. */
  path: string;
  /** The member's file name: for messages only, the type always comes from the bytes. */
  declaredName?: string;
}

export interface ConvertOptions {
  /** Bounds the MuPDF renderers; default: one pool per process, sized to the cores, made on first use. */
  pool?: RenderPool;
  limits?: Partial<ConversionLimits>;
  encode?: Partial<EncodeSettings>;
  /** Parent of the per-job scratch directories (LibreOffice, MuPDF; default: the OS temp dir). */
  tmpDir?: string;
  /** 'auto' (default) runs LibreOffice and MuPDF without network when possible; 'off' is for tests of the profile alone. */
  isolateNetwork?: 'auto' | 'off';
  maxBufferedPages?: number;
  /** Office documents: a long-lived LibreOffice (default: one per process) or 'cold', one LibreOffice per file. */
  office?: WarmOffice | 'cold';
  /** A video's transcode progress, 0..1. */
  onProgress?: (done: number) => void;
  /**
   * A video's probe as the upload made it (the same bytes, in the same sandbox and limits): the conversion starts from
   * it instead of probing again. Ignored when it names another container than the bytes'.
   */
  videoSource?: VideoProbe;
  /** A video's playable file, before its scratch directory goes: store it (required to convert videos). */
  onVideo?: (video: PlayableFile) => Promise<void>;
}

export interface ConversionResult {
  kind: DocumentKind;
  pageCount: number;
  /** Page metadata in page order (the bytes went to onPage). */
  pages: PageSummary[];
  /** The document's text for the copyright check: mammoth raw text for Word, page texts otherwise. */
  text: string;
  /** LibreOffice ran with no network at all (PPTX/DOCX only). */
  networkIsolated?: boolean;
  /** A photo's format and dimensions as shown (kind 'image' only). */
  image?: ImageHeader;
  /** A video's playable file as stored by onVideo, its source and why it was transcoded (kind 'video' only). */
  video?: Omit<VideoResult, 'path'>;
  /** a video's too: where its conversion spent its time (logged with the converted file) */
  timings: { officeMs: number; renderMs: number; totalMs: number; video?: VideoTimings };
}

const sharedOffices = new Map<'auto' | 'off', WarmOffice>();
/** The process's long-lived LibreOffice (one per isolation mode), made on first use. */
export function defaultOffice(isolateNetwork: 'auto' | 'off' = 'auto'): WarmOffice {
  let office = sharedOffices.get(isolateNetwork);
  if (!office) {
    office = new WarmOffice({ isolateNetwork });
    sharedOffices.set(isolateNetwork, office);
  }
  return office;
}

/**
 * Ends the process's warm offices (the service's shutdown, after its workers have stopped): each waits for the
 * documents it holds, then goes with its profile directory and its socket, which a killed service leaves for the next
 * start's sweep. A conversion after this makes a new office.
 */
export async function closeDefaultOffices(): Promise<void> {
  const offices = [...sharedOffices.values()];
  sharedOffices.clear();
  await Promise.all(offices.map((office) => office.close()));
}

/** Fonts inside a DOCX (word/fonts/*.odttf) or PPTX (ppt/fonts/*.fntdata): LibreOffice installs them for its run. */
const EMBEDDED_FONT = /^(word|ppt)\/fonts\/|\.(odttf|fntdata|ttf|otf)$/i;

let sharedPool: RenderPool | undefined;
export function defaultRenderPool(): RenderPool {
  sharedPool ??= new RenderPool();
  return sharedPool;
}

/**
 * sniff → ZIP guard → (LibreOffice → PDF) → pages rendered on the worker pool and streamed to onPage; a photo:
 * sniff → header checks → one page drawn (convert-image.ts).
 * Refusals throw a ConversionError with a stable code; nothing is left in tmpDir either way. If it fails after
 * some pages were delivered, the caller discards them.
 */
export async function convertDocument(
  input: ConvertInput,
  opts: ConvertOptions,
  onPage: OnPage,
): Promise<ConversionResult> {
  const started = performance.now();
  const limits = { ...defaultLimits, ...opts.limits };
  const sniffed = await sniffFile(input.path);
  const controller = new AbortController();
  const timeoutMs = sniffed.video ? limits.videoTimeoutMs : limits.fileTimeoutMs;
  const timer = setTimeout(
    () => controller.abort(new ConversionError('FILE_CONVERSION_TIMEOUT', `conversion took over ${timeoutMs} ms`)),
    timeoutMs,
  );
  let cleanup: (() => Promise<void>) | undefined;
  try {
    if (sniffed.video) {
      const onVideo = opts.onVideo;
      if (!onVideo) throw new Error('convertDocument: a video needs onVideo to store its playable file');
      const r0 = performance.now();
      const { pageCount, pages, video, timings } = await convertVideo(
        input.path,
        sniffed.video,
        {
          pool: opts.pool ?? defaultRenderPool(),
          limits,
          encode: opts.encode,
          signal: controller.signal,
          tmpDir: opts.tmpDir,
          isolateNetwork: opts.isolateNetwork,
          onProgress: opts.onProgress,
          onVideo,
          source: opts.videoSource,
        },
        onPage,
      );
      const renderMs = performance.now() - r0;
      return {
        kind: 'video',
        video,
        pageCount,
        pages,
        text: '',
        timings: { officeMs: 0, renderMs, totalMs: performance.now() - started, video: timings },
      };
    }
    if (sniffed.image) {
      const header = await readImageHeader(input.path, sniffed.image, limits);
      const r0 = performance.now();
      const { pageCount, pages } = await convertImage(
        input.path,
        header,
        {
          pool: opts.pool ?? defaultRenderPool(),
          limits,
          encode: opts.encode,
          signal: controller.signal,
          tmpDir: opts.tmpDir,
          isolateNetwork: opts.isolateNetwork,
        },
        onPage,
      );
      const renderMs = performance.now() - r0;
      return {
        kind: 'image',
        image: header,
        pageCount,
        pages,
        text: '',
        timings: { officeMs: 0, renderMs, totalMs: performance.now() - started },
      };
    }
    if (sniffed.zip) guardZip(sniffed.zip, limits);
    let pdfPath = input.path;
    let officeMs = 0;
    let networkIsolated: boolean | undefined;
    let docxText: Promise<string> | undefined;
    if (sniffed.kind === 'pptx' || sniffed.kind === 'docx') {
      if (sniffed.kind === 'docx') {
        docxText = extractDocxText(input.path);
        docxText.catch(() => {}); // awaited below; a failure here must not be unhandled meanwhile
      }
      const t = performance.now();
      const remaining = limits.fileTimeoutMs - (t - started);
      const timeoutMs = Math.min(limits.officeTimeoutMs, remaining);
      const warm = opts.office === 'cold' ? undefined : (opts.office ?? defaultOffice(opts.isolateNetwork));
      const office: OfficePdf = warm
        ? await warm.convert(input.path, sniffed.kind, {
            tmpDir: opts.tmpDir,
            timeoutMs,
            recycleAfter: sniffed.zip?.entries.some((e) => EMBEDDED_FONT.test(e.name)) ?? true,
          })
        : await officeToPdf(input.path, sniffed.kind, {
            tmpDir: opts.tmpDir,
            timeoutMs,
            isolateNetwork: opts.isolateNetwork,
          });
      cleanup = office.cleanup;
      pdfPath = office.pdfPath;
      networkIsolated = office.networkIsolated;
      officeMs = performance.now() - t;
    }
    const r0 = performance.now();
    const { pageCount, pages } = await renderPdf(
      pdfPath,
      {
        pool: opts.pool ?? defaultRenderPool(),
        limits,
        encode: opts.encode,
        signal: controller.signal,
        maxBufferedPages: opts.maxBufferedPages,
        tmpDir: opts.tmpDir,
        isolateNetwork: opts.isolateNetwork,
      },
      onPage,
    );
    const renderMs = performance.now() - r0;
    const text = docxText ? await docxText.catch(() => joinPageTexts(pages)) : joinPageTexts(pages);
    return {
      kind: sniffed.kind,
      pageCount,
      pages,
      text,
      ...(networkIsolated === undefined ? {} : { networkIsolated }),
      timings: { officeMs, renderMs, totalMs: performance.now() - started },
    };
  } finally {
    clearTimeout(timer);
    await cleanup?.();
  }
}
