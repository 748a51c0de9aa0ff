import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertDocument, officeToPdf, type RenderedPage, RenderPool } from '../../src/conversion/index.ts';

const corpus = process.env.PAGECAST_CORPUS ?? '/work/shared/corpus';
const pdfPages: Record<string, number> = {
  'tracemonkey.pdf': 14,
  'ISO-IEC-29500-3.pdf': 46,
  'noembed-sjis.pdf': 1,
  'noembed-eucjp.pdf': 1,
  'vertical.pdf': 3,
  'cmykjpeg.pdf': 1,
};

let pool: RenderPool;
let tmp: string;
beforeAll(async () => {
  pool = new RenderPool({ size: 2 });
  tmp = await mkdtemp(join(tmpdir(), 'pagecast-corpus-'));
});
afterAll(async () => {
  await pool.close();
  await rm(tmp, { recursive: true, force: true });
});

/** Pixels that are clearly not paper. */
async function inkPixels(webp: Buffer): Promise<number> {
  const { data, info } = await sharp(webp).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let ink = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if ((data[i] as number) < 160 || (data[i + 1] as number) < 160 || (data[i + 2] as number) < 160) ink++;
  }
  return ink;
}

async function convert(file: string) {
  const pages: RenderedPage[] = [];
  const result = await convertDocument({ path: file }, { pool, tmpDir: tmp }, (p) => {
    pages.push(p);
  });
  return { result, pages };
}

function expectWellFormed(result: Awaited<ReturnType<typeof convert>>['result'], pages: RenderedPage[]) {
  expect(pages).toHaveLength(result.pageCount);
  expect(new Set(pages.map((p) => p.pageNumber))).toEqual(
    new Set(Array.from({ length: result.pageCount }, (_, i) => i + 1)),
  );
  for (const p of pages) {
    expect(Math.max(p.width, p.height)).toBe(1920);
    expect(p.webp.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(p.thumbnail.width).toBe(320);
  }
}

describe('corpus PDFs', () => {
  for (const [name, count] of Object.entries(pdfPages)) {
    it(`${name} becomes ${count} pages`, async () => {
      const { result, pages } = await convert(join(corpus, 'pdf', name));
      expect(result.kind).toBe('pdf');
      expect(result.pageCount).toBe(count);
      expectWellFormed(result, pages);
    }, 60_000);
  }

  for (const name of ['noembed-sjis.pdf', 'noembed-eucjp.pdf', 'vertical.pdf']) {
    it(`${name}: Japanese text with fonts not embedded is drawn (cMaps + Noto CJK) and extracted`, async () => {
      const { result, pages } = await convert(join(corpus, 'pdf', name));
      const first = pages.find((p) => p.pageNumber === 1) as RenderedPage;
      // あいうえお alone at this size is a few thousand dark pixels; a blank page has none.
      expect(await inkPixels(first.webp)).toBeGreaterThan(1500);
      expect(first.text).toContain('あいうえお');
      expect(result.text).toContain('あいうえお');
    }, 60_000);
  }
});

describe('corpus Office documents', () => {
  for (const kind of ['pptx', 'docx'] as const) {
    const dir = join(corpus, kind);
    const files = execFileSync('ls', [dir])
      .toString()
      .split('\n')
      .filter((f) => f.endsWith(`.${kind}`));
    for (const name of files) {
      it(`${kind}/${name} has the page count LibreOffice + pdfinfo give`, async () => {
        const office = await officeToPdf(join(dir, name), kind, { timeoutMs: 90_000, tmpDir: tmp });
        const expected = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [office.pdfPath]).toString())?.[1]);
        await office.cleanup();
        const { result, pages } = await convert(join(dir, name));
        expect(result.kind).toBe(kind);
        expect(expected).toBeGreaterThan(0);
        expect(result.pageCount).toBe(expected);
        expectWellFormed(result, pages);
        expect(result.networkIsolated).toBe(true);
        // Every page shows something (external-picture.docx holds only the picture we never fetch).
        if (name !== 'external-picture.docx') {
          for (const p of pages) expect(await inkPixels(p.webp)).toBeGreaterThan(0);
        }
        expect(await readdir(tmp)).toEqual([]);
      }, 120_000);
    }
  }

  it('Word text comes from mammoth', async () => {
    const { result } = await convert(join(corpus, 'docx', 'tables.docx'));
    expect(result.text).toContain('Top left');
  }, 60_000);
});
