/** Every bound the engine enforces, with defaults sized for 10 MB uploads shown on full-HD screens. */
export interface ConversionLimits {
  /** ZIP: entries in the central directory. */
  maxZipEntries: number;
  /** ZIP: sum of declared uncompressed sizes. */
  maxZipTotalBytes: number;
  /** ZIP: uncompressed / compressed, per entry (checked for entries above ratioCheckMinBytes). */
  maxZipEntryRatio: number;
  /** Small parts (tiny XML) can compress extremely well without being a threat; only larger ones are checked. */
  ratioCheckMinBytes: number;
  /** Pages per document; refused before anything is rendered. */
  maxPages: number;
  /** Output size: the page's long side in pixels (1920: a 16:9 slide is exactly 1920x1080). */
  maxLongSide: number;
  /** long side / short side; beyond this a page cannot be shown on a screen and is refused. */
  maxAspectRatio: number;
  /** Largest image a PDF page paints, in pixels (read from the image before it is decoded); above it the file is refused. */
  maxImagePixels: number;
  /** Whole conversion of one file (LibreOffice plus rendering). */
  fileTimeoutMs: number;
  /** LibreOffice alone. */
  officeTimeoutMs: number;
  /** A video's width or height as its container claims it; above it the file is refused before any frame is decoded. */
  maxVideoSide: number;
  /** A video's length. */
  maxVideoSeconds: number;
  /** Whole conversion of one video (probe, remux or transcode, poster): replaces fileTimeoutMs for videos. */
  videoTimeoutMs: number;
  /** Address-space limit of ffprobe and ffmpeg (x264's lookahead and threads need more than MuPDF). */
  maxVideoMemoryMb: number;
}

export const defaultLimits: ConversionLimits = {
  maxZipEntries: 2000,
  maxZipTotalBytes: 200 * 1024 * 1024,
  maxZipEntryRatio: 100,
  ratioCheckMinBytes: 1024 * 1024,
  maxPages: 500,
  maxLongSide: 1920,
  maxAspectRatio: 10,
  // About an A4 scan at 600 dpi; a decoded image of this size is ~160 MB of RGBA in a worker.
  maxImagePixels: 40_000_000,
  fileTimeoutMs: 180_000,
  officeTimeoutMs: 90_000,
  maxVideoSide: 8192,
  maxVideoSeconds: 3600,
  videoTimeoutMs: 900_000,
  maxVideoMemoryMb: 3072,
};

/** Encoding settings shared by the pipeline and the bench baselines. */
export interface EncodeSettings {
  webpQuality: number;
  /** sharp WebP effort 0 (fastest) .. 6 (smallest). */
  webpEffort: number;
  thumbnailWidth: number;
}

export const defaultEncode: EncodeSettings = {
  webpQuality: 80,
  webpEffort: 2,
  thumbnailWidth: 320,
};
