import { open } from 'node:fs/promises';
import { ConversionError } from './errors.ts';
import { readZipDirectory, readZipEntry, type ZipDirectory } from './zip.ts';

export type DocumentKind = 'pdf' | 'pptx' | 'docx';

export interface SniffResult {
  kind: DocumentKind;
  /** The central directory, for the ZIP guard (OOXML only). */
  zip?: ZipDirectory;
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
    'Only PDF, PowerPoint (.pptx) and Word (.docx) files are accepted',
  );
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
