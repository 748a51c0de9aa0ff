import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';
import { ConversionError } from './errors.ts';

/** One central-directory record: what the archive declares, read without inflating anything. */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
  encrypted: boolean;
}

export interface ZipDirectory {
  fileSize: number;
  entries: ZipEntry[];
  /** True when the directory holds more entries than we read (we stop at maxEntries + 1). */
  truncated: boolean;
}

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CD_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;

function corrupt(message: string): ConversionError {
  return new ConversionError('FILE_CORRUPT', message);
}

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, position);
  if (bytesRead !== length) throw corrupt('ZIP structure points past the end of the file');
  return buf;
}

/**
 * Reads the central directory. Memory is bounded by the directory size (at most the file size, and uploads are
 * small); at most maxEntries + 1 records are parsed so a directory claiming millions of entries stays cheap.
 */
export async function readZipDirectory(path: string, maxEntries: number): Promise<ZipDirectory> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    if (size < 22) throw corrupt('ZIP too short');
    const tailLen = Math.min(size, 22 + 0xffff);
    const tail = await readAt(fh, size - tailLen, tailLen);
    let eocd = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD_SIG) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw corrupt('ZIP end of central directory not found (truncated?)');
    let total = tail.readUInt16LE(eocd + 10);
    let cdSize = tail.readUInt32LE(eocd + 12);
    let cdOffset = tail.readUInt32LE(eocd + 16);
    if (total === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
      const locAt = eocd - 20;
      if (locAt < 0 || tail.readUInt32LE(locAt) !== ZIP64_LOCATOR_SIG) throw corrupt('ZIP64 locator missing');
      const z64Offset = Number(tail.readBigUInt64LE(locAt + 8));
      if (z64Offset + 56 > size) throw corrupt('ZIP64 record out of range');
      const z64 = await readAt(fh, z64Offset, 56);
      if (z64.readUInt32LE(0) !== ZIP64_EOCD_SIG) throw corrupt('ZIP64 record missing');
      total = Number(z64.readBigUInt64LE(32));
      cdSize = Number(z64.readBigUInt64LE(40));
      cdOffset = Number(z64.readBigUInt64LE(48));
    }
    if (cdOffset + cdSize > size) throw corrupt('ZIP central directory out of range (truncated?)');
    const cd = await readAt(fh, cdOffset, cdSize);
    const entries: ZipEntry[] = [];
    let p = 0;
    while (p + 46 <= cd.length && entries.length <= maxEntries) {
      if (cd.readUInt32LE(p) !== CD_SIG) break;
      const flags = cd.readUInt16LE(p + 8);
      const method = cd.readUInt16LE(p + 10);
      let compressedSize = cd.readUInt32LE(p + 20);
      let uncompressedSize = cd.readUInt32LE(p + 24);
      const nameLen = cd.readUInt16LE(p + 28);
      const extraLen = cd.readUInt16LE(p + 30);
      const commentLen = cd.readUInt16LE(p + 32);
      let localHeaderOffset = cd.readUInt32LE(p + 42);
      if (p + 46 + nameLen + extraLen > cd.length) throw corrupt('ZIP central directory record truncated');
      const name = cd.toString('utf8', p + 46, p + 46 + nameLen);
      // ZIP64 extended information: the 64-bit values appear in this order, only for fields saturated above.
      let e = p + 46 + nameLen;
      const extraEnd = e + extraLen;
      while (e + 4 <= extraEnd) {
        const id = cd.readUInt16LE(e);
        const len = cd.readUInt16LE(e + 2);
        if (id === 0x0001) {
          let q = e + 4;
          if (uncompressedSize === 0xffffffff && q + 8 <= e + 4 + len) {
            uncompressedSize = Number(cd.readBigUInt64LE(q));
            q += 8;
          }
          if (compressedSize === 0xffffffff && q + 8 <= e + 4 + len) {
            compressedSize = Number(cd.readBigUInt64LE(q));
            q += 8;
          }
          if (localHeaderOffset === 0xffffffff && q + 8 <= e + 4 + len) {
            localHeaderOffset = Number(cd.readBigUInt64LE(q));
          }
        }
        e += 4 + len;
      }
      entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset, encrypted: (flags & 1) === 1 });
      p = extraEnd + commentLen;
    }
    if (entries.length === 0 && total > 0) throw corrupt('ZIP central directory unreadable');
    return { fileSize: size, entries, truncated: entries.length > maxEntries || total > entries.length };
  } finally {
    await fh.close();
  }
}

/** Inflates one small entry (e.g. [Content_Types].xml), never producing more than maxBytes. */
export async function readZipEntry(path: string, entry: ZipEntry, maxBytes: number): Promise<Buffer> {
  if (entry.uncompressedSize > maxBytes) throw corrupt(`${entry.name} is unexpectedly large`);
  if (entry.encrypted) throw new ConversionError('FILE_ENCRYPTED', 'The package is encrypted');
  const fh = await open(path, 'r');
  try {
    const local = await readAt(fh, entry.localHeaderOffset, 30);
    if (local.readUInt32LE(0) !== LOCAL_SIG) throw corrupt('ZIP local header missing');
    const dataAt = entry.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
    const data = await readAt(fh, dataAt, entry.compressedSize);
    if (entry.method === 0) return data;
    if (entry.method !== 8) throw corrupt(`ZIP compression method ${entry.method} not supported`);
    try {
      return inflateRawSync(data, { maxOutputLength: maxBytes });
    } catch (err) {
      throw corrupt(`${entry.name} cannot be inflated: ${(err as Error).message}`);
    }
  } finally {
    await fh.close();
  }
}
