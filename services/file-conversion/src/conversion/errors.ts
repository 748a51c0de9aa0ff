import { type ErrorCode, errorStatus } from '@pagecast/contracts';

/**
 * The codes of documents the engine refuses. Their HTTP status and message live once, in @pagecast/contracts'
 * ErrorCode; this is the subset the engine may raise:
 * - FILE_TYPE_UNSUPPORTED: not a PDF, PPTX, DOCX or photo judged by its bytes (the name is never trusted);
 * - FILE_MACRO_ENABLED: a macro-enabled Office package (pptm/docm content type or a vbaProject part);
 * - FILE_LEGACY_OFFICE: legacy binary Office (OLE2 compound file, e.g. a .doc renamed .docx);
 * - FILE_ENCRYPTED: password-protected PDF or encrypted Office package;
 * - FILE_CORRUPT: truncated or unreadable (broken PDF trailer, broken ZIP directory, unrenderable document);
 * - FILE_ARCHIVE_BOMB: ZIP limits exceeded (entries, uncompressed size, or a bomb-like compression ratio);
 * - FILE_TOO_MANY_PAGES: more pages than the limit, refused before any page is rendered;
 * - FILE_PAGE_TOO_LARGE: a page whose shape cannot be shown on a screen, or has no area;
 * - FILE_IMAGE_TOO_LARGE: an embedded image above the pixel limit (decompression bomb inside a PDF);
 * - IMAGE_TOO_MANY_PIXELS: a photo whose header claims more pixels than the limit, refused before decoding;
 * - VIDEO_DIMENSIONS_TOO_LARGE: a video claiming more than maxVideoSide on a side, refused before a frame is decoded;
 * - VIDEO_TOO_LONG: a video longer than maxVideoSeconds;
 * - MEDIA_EXTERNAL_REFERENCE: a playlist (HLS, ffconcat, SDP) that would have ffmpeg open a URL or another file;
 * - FILE_CONVERSION_TIMEOUT: longer than the time limit (LibreOffice or rendering);
 * - FILE_CONVERSION_FAILED: the converter failed in a way the file caused (LibreOffice exit, crash, out of memory).
 */
const codes = [
  'FILE_TYPE_UNSUPPORTED',
  'FILE_MACRO_ENABLED',
  'FILE_LEGACY_OFFICE',
  'FILE_ENCRYPTED',
  'FILE_CORRUPT',
  'FILE_ARCHIVE_BOMB',
  'FILE_TOO_MANY_PAGES',
  'FILE_PAGE_TOO_LARGE',
  'FILE_IMAGE_TOO_LARGE',
  'IMAGE_TOO_MANY_PIXELS',
  'VIDEO_DIMENSIONS_TOO_LARGE',
  'VIDEO_TOO_LONG',
  'MEDIA_EXTERNAL_REFERENCE',
  'FILE_CONVERSION_TIMEOUT',
  'FILE_CONVERSION_FAILED',
] as const satisfies readonly ErrorCode[];

export type ConversionErrorCode = (typeof codes)[number];

export const ConversionErrorCode = Object.fromEntries(codes.map((c) => [c, c])) as {
  readonly [K in ConversionErrorCode]: K;
};

/** HTTP status per code, from the contracts: 415 for types we do not take, 422 for files we take but refuse. */
export const conversionErrorStatus = Object.fromEntries(codes.map((c) => [c, errorStatus[c]])) as Record<
  ConversionErrorCode,
  number
>;

export class ConversionError extends Error {
  readonly code: ConversionErrorCode;
  readonly status: number;
  constructor(code: ConversionErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConversionError';
    this.code = code;
    this.status = conversionErrorStatus[code];
  }
}

export function isConversionError(err: unknown): err is ConversionError {
  return err instanceof ConversionError;
}
