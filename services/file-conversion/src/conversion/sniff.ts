import { open } from 'node:fs/promises';
import { ConversionError } from './errors.ts';
import { readZipDirectory, readZipEntry, type ZipDirectory } from './zip.ts';

export type DocumentKind = 'pdf' | 'pptx' | 'docx' | 'image' | 'video';
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'heic' | 'avif';
/** A video's container, from its bytes: ISO-BMFF (MP4, QuickTime MOV), EBML (WebM, Matroska) or RIFF AVI. */
export type VideoContainer = 'mp4' | 'mov' | 'webm' | 'mkv' | 'avi';

export interface SniffResult {
  kind: DocumentKind;
  /** The central directory, for the ZIP guard (OOXML only). */
  zip?: ZipDirectory;
  /** A photo's format (kind 'image' only). */
  image?: ImageFormat;
  /** A video's container (kind 'video' only). */
  video?: VideoContainer;
}

const PDF_MAGIC = Buffer.from('%PDF-');
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
// An encrypted OOXML file is an OLE2 container holding a stream named "EncryptedPackage" (UTF-16LE).
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

const PRESENTATION_TYPES = [
  'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
  'application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml',
];
const WORD_TYPES = ['application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml'];

/** Entries read while sniffing; the guard later applies the real limit. */
const SNIFF_MAX_ENTRIES = 100_000;

/** Whether the file's first bytes say photo or video (the kinds allowed past 10 MB), without reading more. */
export async function isMediaFile(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(1024);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    const start = head.subarray(0, bytesRead);
    return imageFormatOf(start) !== undefined || videoContainerOf(start) !== undefined;
  } finally {
    await fh.close();
  }
}

/**
 * Decides the document type from its bytes. Never looks at the name: a PNG named .pdf, a .doc renamed .docx or a
 * macro-enabled package renamed .pptx are refused with their own codes.
 */
export async function sniffFile(path: string): Promise<SniffResult> {
  const fh = await open(path, 'r');
  let head: Buffer;
  let size: number;
  let isZip = false;
  try {
    size = (await fh.stat()).size;
    head = Buffer.alloc(Math.min(size, 1024));
    await fh.read(head, 0, head.length, 0);
    if (head.subarray(0, OLE2_MAGIC.length).equals(OLE2_MAGIC)) {
      const whole = await fh.readFile();
      if (whole.includes(ENCRYPTED_PACKAGE)) {
        throw new ConversionError('FILE_ENCRYPTED', 'The Office document is password-protected');
      }
      throw new ConversionError('FILE_LEGACY_OFFICE', 'Legacy binary Office files (.doc/.ppt) are not supported');
    }
    const image = imageFormatOf(head);
    if (image) return { kind: 'image', image };
    const video = videoContainerOf(head);
    if (video) return { kind: 'video', video };
    if (isMediaPlaylist(head)) {
      throw new ConversionError(
        'MEDIA_EXTERNAL_REFERENCE',
        'A playlist (HLS or ffconcat) names other files or URLs to open: only a media file itself is accepted',
      );
    }
    if (head.subarray(0, 4).equals(ZIP_MAGIC)) isZip = true;
    // The PDF header may follow a little junk (the spec allows it within the first 1024 bytes).
    else if (head.indexOf(PDF_MAGIC) >= 0) {
      const tailLen = Math.min(size, 2048);
      const tail = Buffer.alloc(tailLen);
      await fh.read(tail, 0, tailLen, size - tailLen);
      checkPdfTrailer(tail.toString('latin1'), size);
      return { kind: 'pdf' };
    }
  } finally {
    await fh.close();
  }
  if (isZip) return sniffOoxml(path);
  throw new ConversionError(
    'FILE_TYPE_UNSUPPORTED',
    'Only PDF, PowerPoint (.pptx), Word (.docx), JPEG, PNG, WebP, GIF, HEIC or AVIF images and MP4, MOV, WebM, MKV or AVI videos are accepted',
  );
}

const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// ISO-BMFF brands (ftyp box) of HEIF still images: HEVC-coded ones and the generic MIAF/HEIF brands.
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs', 'mif1', 'msf1', 'miaf']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

/**
 * A photo's format from its first bytes (magic numbers; for HEIF and AVIF the ftyp box's brands). A HEIF file that
 * names only the generic brands (mif1) counts as HEIC here; its codec is read from the header before decoding.
 */
export function imageFormatOf(head: Buffer): ImageFormat | undefined {
  if (head.subarray(0, 3).equals(JPEG_MAGIC)) return 'jpeg';
  if (head.subarray(0, 8).equals(PNG_MAGIC)) return 'png';
  const ascii = head.subarray(0, 12).toString('latin1');
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'gif';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'webp';
  if (ascii.slice(4, 8) === 'ftyp') {
    const boxSize = head.readUInt32BE(0);
    if (boxSize < 16 || boxSize > head.length) return undefined;
    const brands = [head.subarray(8, 12).toString('latin1')];
    for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(head.subarray(at, at + 4).toString('latin1'));
    if (brands.some((b) => AVIF_BRANDS.has(b))) return 'avif';
    if (brands.some((b) => HEIC_BRANDS.has(b))) return 'heic';
  }
  return undefined;
}

// QuickTime files older than the ftyp box start with one of these atoms.
const QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);
const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
// EBML DocType element (id 0x4282) with a one-byte size, then 'webm'
const WEBM_DOCTYPE = Buffer.from([0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6d]);

/**
 * A video's container from its first bytes: an ISO-BMFF ftyp box that is not a HEIF/AVIF still ('qt  ' is MOV,
 * every other brand MP4: isom, mp42, avc1, M4V, 3gp...), a bare QuickTime atom (MOV), EBML with DocType webm
 * (WebM) or anything else (Matroska), or RIFF AVI. Call after imageFormatOf.
 */
export function videoContainerOf(head: Buffer): VideoContainer | undefined {
  if (head.length < 12) return undefined;
  const ascii = head.subarray(0, 12).toString('latin1');
  const box = ascii.slice(4, 8);
  if (box === 'ftyp') return ascii.slice(8, 12) === 'qt  ' ? 'mov' : 'mp4';
  if (QUICKTIME_ATOMS.has(box) && head.readUInt32BE(0) >= 8) return 'mov';
  if (head.subarray(0, 4).equals(EBML_MAGIC)) return head.subarray(0, 64).includes(WEBM_DOCTYPE) ? 'webm' : 'mkv';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'AVI ') return 'avi';
  return undefined;
}

/**
 * A text playlist ffmpeg would follow to other files or URLs (HLS #EXTM3U, ffconcat, an SDP session): refused by
 * its own code even though the demuxer is forced and the protocols are whitelisted anyway.
 */
function isMediaPlaylist(head: Buffer): boolean {
  const text = head
    .subarray(0, 64)
    .toString('latin1')
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart();
  return /^#EXTM3U|^ffconcat\s+version|^v=0\s/i.test(text);
}

/** A PDF cut short loses its trailer: no %%EOF, no startxref, or an xref offset past the end. */
function checkPdfTrailer(tail: string, size: number): void {
  const startxref = /startxref\s+(\d+)\s+%%EOF/.exec(tail);
  if (!startxref || !/%%EOF\s*$/.test(tail.slice(-64))) {
    throw new ConversionError('FILE_CORRUPT', 'The PDF is truncated (no trailer)');
  }
  if (Number(startxref[1]) >= size) throw new ConversionError('FILE_CORRUPT', 'The PDF is truncated (bad xref offset)');
}

async function sniffOoxml(path: string): Promise<SniffResult> {
  const zip = await readZipDirectory(path, SNIFF_MAX_ENTRIES);
  const unsupported = () =>
    new ConversionError('FILE_TYPE_UNSUPPORTED', 'The archive is not a PowerPoint (.pptx) or Word (.docx) document');
  if (zip.entries.some((e) => /(^|\/)vbaProject\.bin$/i.test(e.name))) {
    throw new ConversionError('FILE_MACRO_ENABLED', 'Macro-enabled Office files are not accepted');
  }
  const ct = zip.entries.find((e) => e.name === '[Content_Types].xml');
  if (!ct) throw unsupported();
  const xml = (await readZipEntry(path, ct, 1024 * 1024)).toString('utf8');
  const types = [...xml.matchAll(/ContentType\s*=\s*"([^"]*)"/g)].map((m) => (m[1] ?? '').toLowerCase());
  if (types.some((t) => t.includes('macroenabled') || t.includes('vbaproject'))) {
    throw new ConversionError('FILE_MACRO_ENABLED', 'Macro-enabled Office files are not accepted');
  }
  if (types.some((t) => PRESENTATION_TYPES.includes(t))) return { kind: 'pptx', zip };
  if (types.some((t) => WORD_TYPES.includes(t))) return { kind: 'docx', zip };
  throw unsupported();
}
