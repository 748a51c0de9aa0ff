/**
 * Stable codes for documents the engine refuses. The lead copies them into @pagecast/contracts' ErrorCode;
 * the service's error handler maps a ConversionError to its HTTP status.
 */
export const ConversionErrorCode = {
  /** Not a PDF, PPTX or DOCX judged by its bytes (the name is never trusted). */
  FILE_TYPE_UNSUPPORTED: 'FILE_TYPE_UNSUPPORTED',
  /** A macro-enabled Office package (pptm/docm content type or a vbaProject part). */
  FILE_MACRO_ENABLED: 'FILE_MACRO_ENABLED',
  /** Legacy binary Office (OLE2 compound file, e.g. a .doc renamed .docx). */
  FILE_LEGACY_OFFICE: 'FILE_LEGACY_OFFICE',
  /** Password-protected PDF or encrypted Office package. */
  FILE_ENCRYPTED: 'FILE_ENCRYPTED',
  /** Truncated or unreadable file (broken PDF trailer, broken ZIP directory, unrenderable document). */
  FILE_CORRUPT: 'FILE_CORRUPT',
  /** ZIP limits exceeded: too many entries, too large uncompressed, or a compression ratio typical of a bomb. */
  FILE_ARCHIVE_BOMB: 'FILE_ARCHIVE_BOMB',
  /** More pages than the limit; refused before any page is rendered. */
  FILE_TOO_MANY_PAGES: 'FILE_TOO_MANY_PAGES',
  /** A page whose shape cannot be shown on a screen (aspect ratio beyond the limit) or has no area. */
  FILE_PAGE_TOO_LARGE: 'FILE_PAGE_TOO_LARGE',
  /** An embedded image above the pixel limit (decompression bomb inside a PDF). */
  FILE_IMAGE_TOO_LARGE: 'FILE_IMAGE_TOO_LARGE',
  /** The file took longer than the time limit (LibreOffice or rendering). */
  FILE_CONVERSION_TIMEOUT: 'FILE_CONVERSION_TIMEOUT',
  /** The converter failed in a way the file caused (LibreOffice exit, renderer crash or out of memory). */
  FILE_CONVERSION_FAILED: 'FILE_CONVERSION_FAILED',
} as const;

export type ConversionErrorCode = (typeof ConversionErrorCode)[keyof typeof ConversionErrorCode];

/** Suggested HTTP status per code: 415 for types we do not take, 422 for files we take but refuse. */
export const conversionErrorStatus: Record<ConversionErrorCode, number> = {
  FILE_TYPE_UNSUPPORTED: 415,
  FILE_MACRO_ENABLED: 415,
  FILE_LEGACY_OFFICE: 415,
  FILE_ENCRYPTED: 422,
  FILE_CORRUPT: 422,
  FILE_ARCHIVE_BOMB: 422,
  FILE_TOO_MANY_PAGES: 422,
  FILE_PAGE_TOO_LARGE: 422,
  FILE_IMAGE_TOO_LARGE: 422,
  FILE_CONVERSION_TIMEOUT: 422,
  FILE_CONVERSION_FAILED: 422,
};

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
