import { execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversionError, type ConversionErrorCode, convertDocument, RenderPool } from '../../src/conversion/index.ts';
import { buildZip, CONTENT_TYPES_DOCM, pdfWithImage, pdfWithPages, processesUsing } from './fixtures.ts';

const corpus = process.env.PAGECAST_CORPUS ?? '/work/shared/corpus';
const DOCX_TYPES = `<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const PPTX_TYPES = `<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>`;

let pool: RenderPool;
let work: string; // fixtures
let tmp: string; // the engine's scratch space: must be empty after every refusal
let peakRss = 0;
let sampler: NodeJS.Timeout;

beforeAll(async () => {
  pool = new RenderPool({ size: 2 });
  work = await mkdtemp(join(tmpdir(), 'pagecast-hostile-in-'));
  tmp = await mkdtemp(join(tmpdir(), 'pagecast-hostile-tmp-'));
  sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
});
afterAll(async () => {
  clearInterval(sampler);
  await pool.close();
  await rm(work, { recursive: true, force: true });
  await rm(tmp, { recursive: true, force: true });
});

async function expectRefused(name: string, bytes: Buffer, code: ConversionErrorCode, limits = {}) {
  const path = join(work, name);
  await writeFile(path, bytes);
  let pages = 0;
  const error = await convertDocument({ path, declaredName: name }, { pool, tmpDir: tmp, limits }, () => {
    pages++;
  }).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ConversionError);
  expect((error as ConversionError).code).toBe(code);
  expect(pages).toBe(0);
  expect(await readdir(tmp)).toEqual([]);
  return error as ConversionError;
}

describe('hostile inputs are refused with their code, leaving nothing behind', () => {
  it('a ZIP bomb (one entry inflating 1000:1) is refused from the directory, without inflating it', async () => {
    const bomb = buildZip([
      { name: '[Content_Types].xml', data: Buffer.from(DOCX_TYPES) },
      { name: 'word/document.xml', data: Buffer.alloc(64 * 1024 * 1024) },
    ]);
    expect(bomb.length).toBeLessThan(200_000);
    const refused = await expectRefused('bomb.docx', bomb, 'FILE_ARCHIVE_BOMB');
    // the directory's ratio rule, which reads sizes only (zip-guard.ts)
    expect(refused.message).toMatch(/word\/document\.xml compression ratio \d+/);
    // The same bomb with its compressed data destroyed (0xFF: an invalid deflate block) is refused the same way: had
    // the entry been inflated, or handed to a renderer, it would be FILE_CORRUPT or a failed conversion instead.
    const typesEnd = 30 + '[Content_Types].xml'.length + bomb.readUInt32LE(18);
    const dataAt = typesEnd + 30 + 'word/document.xml'.length;
    const wrecked = Buffer.from(bomb);
    wrecked.fill(0xff, dataAt, dataAt + wrecked.readUInt32LE(typesEnd + 18));
    const again = await expectRefused('wrecked-bomb.docx', wrecked, 'FILE_ARCHIVE_BOMB');
    expect(again.message).toBe(refused.message);
    expect(processesUsing(tmp)).toHaveLength(0);
  });

  it('a ZIP with too many entries, or too much declared data, is refused', async () => {
    const many = buildZip([
      { name: '[Content_Types].xml', data: Buffer.from(PPTX_TYPES) },
      ...Array.from({ length: 2500 }, (_, i) => ({ name: `ppt/x${i}.xml`, data: Buffer.from('<a/>') })),
    ]);
    await expectRefused('many.pptx', many, 'FILE_ARCHIVE_BOMB');
    const huge = buildZip([
      { name: '[Content_Types].xml', data: Buffer.from(PPTX_TYPES) },
      ...Array.from({ length: 5 }, (_, i) => ({
        name: `ppt/media/m${i}.bin`,
        data: Buffer.alloc(2 * 1024 * 1024, i),
        store: true,
        declaredSize: 60 * 1024 * 1024,
      })),
    ]);
    await expectRefused('huge.pptx', huge, 'FILE_ARCHIVE_BOMB', { ratioCheckMinBytes: Number.MAX_SAFE_INTEGER });
  });

  it('a PDF with a 20000x20000 image is refused', async () => {
    await expectRefused('pixels.pdf', pdfWithImage(20_000, 20_000), 'FILE_IMAGE_TOO_LARGE');
  });

  it('a 5000-page PDF is refused before any page is drawn', async () => {
    const err = await expectRefused('pages.pdf', pdfWithPages(5000, 200, 200), 'FILE_TOO_MANY_PAGES');
    expect(err.message).toContain('5000');
  });

  it('a very tall page is refused', async () => {
    await expectRefused('tall.pdf', pdfWithPages(1, 200, 14_400), 'FILE_PAGE_TOO_LARGE');
  });

  it('macro-enabled packages are refused (docm content type, or a vbaProject part)', async () => {
    const docm = buildZip([
      { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES_DOCM) },
      { name: 'word/document.xml', data: Buffer.from('<w:document/>') },
    ]);
    await expectRefused('macro.docx', docm, 'FILE_MACRO_ENABLED');
    const withVba = buildZip([
      { name: '[Content_Types].xml', data: Buffer.from(PPTX_TYPES) },
      { name: 'ppt/vbaProject.bin', data: Buffer.from('VBA') },
    ]);
    await expectRefused('macro.pptx', withVba, 'FILE_MACRO_ENABLED');
  });

  it('a legacy .doc (OLE2) renamed .docx is refused', async () => {
    const ole = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(4096, 0x20)]);
    await expectRefused('old.docx', ole, 'FILE_LEGACY_OFFICE');
  });

  it('a TIFF named .pdf is refused (an image format the upload does not take; photos are in images.test.ts)', async () => {
    const tiff = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#fff' } })
      .tiff()
      .toBuffer();
    await expectRefused('image.pdf', tiff, 'FILE_TYPE_UNSUPPORTED');
  });

  it('a ZIP that is not an Office document is refused', async () => {
    const zip = buildZip([{ name: 'readme.txt', data: Buffer.from('hello') }]);
    await expectRefused('archive.pptx', zip, 'FILE_TYPE_UNSUPPORTED');
  });

  it('a password-protected PDF is refused', async () => {
    const locked = join(work, 'locked-source.pdf');
    execFileSync('mutool', [
      'clean',
      '-E',
      'aes-128',
      '-U',
      'secret',
      '-O',
      'owner',
      join(corpus, 'pdf/vertical.pdf'),
      locked,
    ]);
    await expectRefused('locked.pdf', await readFile(locked), 'FILE_ENCRYPTED');
  });

  it('a renderer over its memory limit fails the file, and leaves neither process nor scratch behind', async () => {
    // 60 MB opens the document but not a full-HD page's pixels: MuPDF's allocation fails and the script ends.
    const small = new RenderPool({ size: 1, maxMemoryMb: 60 });
    try {
      const path = join(work, 'big.pdf');
      await copyFile(join(corpus, 'pdf/tracemonkey.pdf'), path);
      const error = await convertDocument({ path }, { pool: small, tmpDir: tmp }, () => {}).catch((e: unknown) => e);
      expect((error as ConversionError).code).toBe('FILE_CONVERSION_FAILED');
      expect((error as ConversionError).message).toContain('renderer stopped');
      expect(await readdir(tmp)).toEqual([]);
      expect(processesUsing(tmp)).toHaveLength(0);
    } finally {
      await small.close();
    }
  });

  it('a truncated PDF is refused', async () => {
    const whole = await readFile(join(corpus, 'pdf/tracemonkey.pdf'));
    await expectRefused('cut.pdf', whole.subarray(0, Math.floor(whole.length / 2)), 'FILE_CORRUPT');
  });

  it('a PDF over its time limit is stopped, its renderer killed', async () => {
    // The limit falls while pages are being drawn: some may have been delivered (the caller discards them).
    const path = join(work, 'slow.pdf');
    await copyFile(join(corpus, 'pdf/ISO-IEC-29500-3.pdf'), path);
    let pages = 0;
    const error = await convertDocument({ path }, { pool, tmpDir: tmp, limits: { fileTimeoutMs: 300 } }, () => {
      pages++;
    }).catch((err: unknown) => err);
    expect((error as ConversionError).code).toBe('FILE_CONVERSION_TIMEOUT');
    expect(pages).toBeLessThan(46);
    expect(await readdir(tmp)).toEqual([]);
    expect(processesUsing(tmp)).toHaveLength(0);
  });

  it('LibreOffice over its time limit is killed with its whole process group', async () => {
    const path = join(work, 'slow.pptx');
    await copyFile(join(corpus, 'pptx/cht-chart-type.pptx'), path);
    await expectRefused('slow.pptx', await readFile(path), 'FILE_CONVERSION_TIMEOUT', { officeTimeoutMs: 400 });
    await new Promise((r) => setTimeout(r, 300));
    expect(processesUsing(tmp)).toHaveLength(0);
  }, 30_000);

  it('afterwards the same pool still converts a good file, and memory stayed bounded', async () => {
    let pages = 0;
    const result = await convertDocument({ path: join(corpus, 'pdf/tracemonkey.pdf') }, { pool, tmpDir: tmp }, () => {
      pages++;
    });
    expect(result.pageCount).toBe(14);
    expect(pages).toBe(14);
    expect(await readdir(tmp)).toEqual([]);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    expect(peakRss).toBeLessThan(1.5 * 1024 * 1024 * 1024);
  }, 60_000);
});
