// Small generators for hostile inputs: PDFs written by hand as text, ZIPs with node:zlib and a tiny writer.
import { readdirSync, readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { readZipDirectory, readZipEntry } from '../../src/conversion/zip.ts';

/** Serialises objects into a PDF with a correct xref table. Each object body is given without "n 0 obj". */
export function buildPdf(objects: (string | Buffer)[], rootRef = '1 0 R'): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(chunk);
    offset += chunk.length;
  });
  let xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) xref += `${String(o).padStart(10, '0')} 00000 n \n`;
  xref += `trailer\n<< /Size ${objects.length + 1} /Root ${rootRef} >>\nstartxref\n${offset}\n%%EOF\n`;
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

function stream(dict: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

/** A PDF whose pages all share one content stream; sizes in points. */
export function pdfWithPages(count: number, width = 595, height = 842, text = 'Hello'): Buffer {
  const content = stream('', Buffer.from(`BT /F1 24 Tf 72 ${height - 100} Td (${text}) Tj ET`, 'latin1'));
  const kids: string[] = [];
  const pages: string[] = [];
  for (let i = 0; i < count; i++) {
    kids.push(`${5 + i} 0 R`);
    pages.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>`,
    );
  }
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${count} >>`,
    content,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...pages,
  ]);
}

/** One page drawing a 1-bit image of width x height pixels; its stream is real deflated zeros (a pixel bomb). */
export function pdfWithImage(width: number, height: number): Buffer {
  const raw = Buffer.alloc(Math.ceil(width / 8) * height);
  const img = stream(
    `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode`,
    deflateRawToZlib(raw),
  );
  const content = stream('', Buffer.from('q 500 0 0 500 50 50 cm /Im1 Do Q', 'latin1'));
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 600] /Contents 4 0 R /Resources << /XObject << /Im1 5 0 R >> >> >>',
    content,
    img,
  ]);
}

function deflateRawToZlib(data: Buffer): Buffer {
  // FlateDecode is zlib-wrapped: 2-byte header, raw deflate, Adler-32.
  return Buffer.concat([Buffer.from([0x78, 0x9c]), deflateRawSync(data, { level: 9 }), Buffer.alloc(4)]);
}

export interface ZipInput {
  name: string;
  data: Buffer;
  /** Store the entry with these declared sizes instead of the real ones (to fake a directory). */
  declaredSize?: number;
  store?: boolean;
}

/** A minimal ZIP writer (deflate or store, no ZIP64). */
export function buildZip(entries: ZipInput[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const body = e.store ? e.data : deflateRawSync(e.data);
    const size = e.declaredSize ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.store ? 0 : 8, 8);
    local.writeUInt32LE(0, 14); // CRC not checked by our reader; LibreOffice never sees these fixtures
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(e.store ? 0 : 8, 10);
    cd.writeUInt32LE(body.length, 20);
    cd.writeUInt32LE(size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    central.push(cd, name);
    offset += 30 + name.length + body.length;
  }
  const cdBuf = Buffer.concat(central);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cdBuf.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cdBuf, eocd]);
}

/** Copies an OOXML package, replacing some entries' content; CRCs are recomputed so LibreOffice accepts it. */
export async function rewriteZip(path: string, replace: Record<string, (old: Buffer) => Buffer>): Promise<Buffer> {
  const dir = await readZipDirectory(path, 10_000);
  const out: ZipInput[] = [];
  for (const e of dir.entries) {
    if (e.name.endsWith('/')) continue;
    const data = await readZipEntry(path, e, 50 * 1024 * 1024);
    out.push({ name: e.name, data: replace[e.name]?.(data) ?? data });
  }
  return buildZipWithCrc(out);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = (crcTable[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Like buildZip, with real CRC-32s, for packages LibreOffice must open. */
export function buildZipWithCrc(entries: ZipInput[]): Buffer {
  const zip = buildZip(entries);
  // Patch CRCs in place: walk local headers, then the central directory.
  let p = 0;
  const crcs: number[] = [];
  for (const e of entries) {
    const crc = crc32(e.data);
    crcs.push(crc);
    zip.writeUInt32LE(crc, p + 14);
    p += 30 + zip.readUInt16LE(p + 26) + zip.readUInt32LE(p + 18);
  }
  for (const crc of crcs) {
    zip.writeUInt32LE(crc, p + 16);
    p += 46 + zip.readUInt16LE(p + 28);
  }
  return zip;
}

export const CONTENT_TYPES_DOCM = `<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.ms-word.document.macroEnabled.main+xml"/></Types>`;

/** Processes whose command line mentions dir (a LibreOffice or MuPDF renderer working in a scratch dir), by pid. */
export function processesUsing(dir: string): number[] {
  const pids: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir)) pids.push(Number(pid));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}
