import { readFileSync, readlinkSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canIsolateNetwork, convertDocument, RenderPool } from '../../src/conversion/index.ts';
import { processesUsing } from './fixtures.ts';

const corpus = process.env.PAGECAST_CORPUS ?? '/work/shared/corpus';
let pool: RenderPool;
let tmp: string;

beforeAll(async () => {
  pool = new RenderPool({ size: 1 });
  tmp = await mkdtemp(join(tmpdir(), 'pagecast-render-'));
});
afterAll(async () => {
  await pool.close();
  await rm(tmp, { recursive: true, force: true });
});

/** The MuPDF renderers working in this file's scratch dir (nothing else runs there). */
const renderers = () => processesUsing(tmp);

describe('the MuPDF renderer', () => {
  it('runs apart: without the service environment, and without network where the system allows it', async () => {
    process.env.PAGECAST_RENDER_SECRET = 'must-not-leak';
    let seen: { environ: string; net: string } | undefined;
    try {
      // One page at a time: the renderer is still there, waiting for its next credit, while page 1 is delivered.
      const options = { pool, tmpDir: tmp, maxBufferedPages: 1 };
      await convertDocument({ path: join(corpus, 'pdf/ISO-IEC-29500-3.pdf') }, options, () => {
        const [pid] = renderers();
        if (pid && !seen) {
          seen = {
            environ: readFileSync(`/proc/${pid}/environ`, 'utf8'),
            net: readlinkSync(`/proc/${pid}/ns/net`),
          };
        }
      });
    } finally {
      delete process.env.PAGECAST_RENDER_SECRET;
    }
    expect(seen).toBeDefined();
    expect(seen?.environ).not.toContain('must-not-leak');
    expect(seen?.environ).toContain('PATH=');
    if (canIsolateNetwork()) expect(seen?.net).not.toBe(readlinkSync('/proc/self/ns/net'));
    expect(renderers()).toEqual([]);
    expect(await readdir(tmp)).toEqual([]);
  });

  it('waits for a slow consumer instead of drawing the whole document ahead', async () => {
    // 46 pages; MuPDF alone draws them in about a second. Delivering each takes 80 ms here, so by page 30 (2.4 s)
    // a renderer without credits would long be finished; with a window of 2 it is still waiting for them.
    let aliveAtPage30: number | undefined;
    const result = await convertDocument(
      { path: join(corpus, 'pdf/ISO-IEC-29500-3.pdf') },
      { pool, tmpDir: tmp, maxBufferedPages: 2 },
      async (page) => {
        if (page.pageNumber === 30) aliveAtPage30 = renderers().length;
        await new Promise((r) => setTimeout(r, 80));
      },
    );
    expect(result.pageCount).toBe(46);
    expect(aliveAtPage30).toBe(1);
    expect(renderers()).toEqual([]);
    expect(await readdir(tmp)).toEqual([]);
  }, 30_000);

  it('draws the thumbnail at its own size: 320 wide, the page proportions kept', async () => {
    const pages: { width: number; height: number; tw: number; th: number }[] = [];
    await convertDocument({ path: join(corpus, 'pdf/tracemonkey.pdf') }, { pool, tmpDir: tmp }, (p) => {
      pages.push({ width: p.width, height: p.height, tw: p.thumbnail.width, th: p.thumbnail.height });
    });
    for (const p of pages) {
      expect(p.tw).toBe(320);
      expect(Math.abs(p.th - (p.height * 320) / p.width)).toBeLessThanOrEqual(1);
    }
  });
});
