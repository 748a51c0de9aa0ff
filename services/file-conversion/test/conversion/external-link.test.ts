import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canIsolateNetwork, convertDocument, RenderPool } from '../../src/conversion/index.ts';
import { rewriteZip } from './fixtures.ts';

const corpus = process.env.PAGECAST_CORPUS ?? '/work/shared/corpus';
let server: Server;
let requests: string[] = [];
let url = '';
let pool: RenderPool;
let work: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png' }).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tiny-picture.png`;
  pool = new RenderPool({ size: 1 });
  work = await mkdtemp(join(tmpdir(), 'pagecast-extlink-'));
});
afterAll(async () => {
  server.close();
  await pool.close();
  await rm(work, { recursive: true, force: true });
});

async function docxLinkingTo(target: string): Promise<string> {
  const rels = 'word/_rels/document.xml.rels';
  let rewritten = '';
  const bytes = await rewriteZip(join(corpus, 'docx/external-picture.docx'), {
    [rels]: (old) => {
      rewritten = old.toString('utf8').replace('Target="tiny-picture.png"', `Target="${target}"`);
      return Buffer.from(rewritten);
    },
  });
  expect(rewritten).toContain(`Target="${target}" TargetMode="External"`);
  const path = join(work, 'linked.docx');
  await writeFile(path, bytes);
  return path;
}

describe('external-picture.docx: an externally linked picture is never fetched', () => {
  it('the test server does answer when asked (so silence below means no request)', async () => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(requests).toHaveLength(1);
    requests = [];
  });

  it('with the default isolation (own network namespace)', async () => {
    expect(canIsolateNetwork()).toBe(true);
    const path = await docxLinkingTo(url);
    const tmp = await mkdtemp(join(work, 'tmp-'));
    const result = await convertDocument({ path }, { pool, tmpDir: tmp }, () => {});
    expect(result.pageCount).toBe(1);
    expect(result.networkIsolated).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(requests).toEqual([]);
    expect(await readdir(tmp)).toEqual([]);
  }, 60_000);

  it('with the network reachable, the LibreOffice profile alone still blocks it', async () => {
    const path = await docxLinkingTo(url);
    const result = await convertDocument({ path }, { pool, isolateNetwork: 'off' }, () => {});
    expect(result.pageCount).toBe(1);
    expect(result.networkIsolated).toBe(false);
    await new Promise((r) => setTimeout(r, 200));
    expect(requests).toEqual([]);
  }, 60_000);
});
