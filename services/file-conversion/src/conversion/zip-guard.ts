import { ConversionError } from './errors.ts';
import { type ConversionLimits, defaultLimits } from './limits.ts';
import type { ZipDirectory } from './zip.ts';

type ZipLimits = Pick<
  ConversionLimits,
  'maxZipEntries' | 'maxZipTotalBytes' | 'maxZipEntryRatio' | 'ratioCheckMinBytes'
>;

/**
 * Refuses a ZIP bomb from its central directory alone, before LibreOffice inflates anything: too many entries,
 * too much declared uncompressed data, a per-entry ratio typical of a bomb, or entries whose compressed data
 * could not fit in the file (overlapping entries, the "non-recursive" bomb).
 */
export function guardZip(dir: ZipDirectory, limits: ZipLimits = defaultLimits): void {
  const bomb = (why: string) => new ConversionError('FILE_ARCHIVE_BOMB', `Archive refused: ${why}`);
  if (dir.truncated || dir.entries.length > limits.maxZipEntries) {
    throw bomb(`more than ${limits.maxZipEntries} entries`);
  }
  let total = 0;
  let compressedTotal = 0;
  for (const e of dir.entries) {
    total += e.uncompressedSize;
    compressedTotal += e.compressedSize;
    if (total > limits.maxZipTotalBytes) throw bomb(`more than ${limits.maxZipTotalBytes} bytes uncompressed`);
    if (e.uncompressedSize >= limits.ratioCheckMinBytes) {
      const ratio = e.uncompressedSize / Math.max(1, e.compressedSize);
      if (ratio > limits.maxZipEntryRatio) throw bomb(`${e.name} compression ratio ${Math.round(ratio)}`);
    }
  }
  if (compressedTotal > dir.fileSize) throw bomb('entries overlap');
}
