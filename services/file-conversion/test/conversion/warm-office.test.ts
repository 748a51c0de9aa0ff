import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { officePipePaths, sweepEndedOffices } from '../../src/conversion/office-pipes.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConversionError,
  closeDefaultOffices,
  convertDocument,
  defaultOffice,
  RenderPool,
  WarmOffice,
} from '../../src/conversion/index.ts';
import { buildZipWithCrc } from './fixtures.ts';

let work: string;
let tmp: string; // job directories: empty once each job is cleaned up

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pagecast-warm-in-'));
  tmp = await mkdtemp(join(tmpdir(), 'pagecast-warm-tmp-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  await rm(tmp, { recursive: true, force: true });
});

/** A one-paragraph DOCX; `extra` entries are added as they are (e.g. an embedded font part). */
async function docx(name: string, text: string, extra: { name: string; data: Buffer }[] = []): Promise<string> {
  const xml = (s: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${s}`);
  const bytes = buildZipWithCrc([
    {
      name: '[Content_Types].xml',
      data: xml(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: xml(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
    },
    {
      name: 'word/document.xml',
      data: xml(
        `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`,
      ),
    },
    ...extra,
  ]);
  const path = join(work, name);
  await writeFile(path, bytes);
  return path;
}

const pdfText = (path: string) => execFileSync('pdftotext', [path, '-']).toString();

describe('the warm LibreOffice converter', () => {
  it('converts one document after another in the same office, and the second sees nothing of the first', async () => {
    const office = new WarmOffice();
    try {
      const a = await office.convert(await docx('a.docx', 'alpha first document'), 'docx', {
        timeoutMs: 60_000,
        tmpDir: tmp,
      });
      expect(pdfText(a.pdfPath)).toContain('alpha first document');
      await a.cleanup();
      const b = await office.convert(await docx('b.docx', 'bravo second document'), 'docx', {
        timeoutMs: 60_000,
        tmpDir: tmp,
      });
      const text = pdfText(b.pdfPath);
      expect(text).toContain('bravo second document');
      expect(text).not.toContain('alpha');
      expect(b.networkIsolated).toBe(true);
      await b.cleanup();
      // Both in one office: the start was paid once.
      expect(office.generation).toBe(1);
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      await office.close();
    }
  }, 120_000);

  it('replaces the office after maxJobs documents, after a document with embedded fonts and after a failed job', async () => {
    const office = new WarmOffice({ maxJobs: 2 });
    const convert = async (path: string) => {
      const r = await office.convert(path, 'docx', { timeoutMs: 60_000, tmpDir: tmp });
      await r.cleanup();
    };
    // Offices started by the rules under test: a warm office that fails a job is retried once on a fresh one (counted
    // in retries), which on a loaded machine can happen to any of these documents.
    const offices = () => office.generation - office.retries;
    try {
      const plain = await docx('plain.docx', 'plain');
      await convert(plain);
      await convert(plain);
      expect(offices()).toBe(1);
      await convert(plain); // the third document: a new office
      expect(offices()).toBe(2);

      // A document carrying fonts: the office that may have installed them is not used again.
      const fonts = await docx('fonts.docx', 'with fonts', [
        { name: 'word/fonts/font1.odttf', data: Buffer.alloc(64, 7) },
      ]);
      const r = await office.convert(fonts, 'docx', { timeoutMs: 60_000, tmpDir: tmp, recycleAfter: true });
      await r.cleanup();
      await convert(plain);
      expect(offices()).toBe(3);

      // Any failure of a job (here its input vanished): the next document gets a new office.
      const err = await office
        .convert(join(work, 'gone.docx'), 'docx', { timeoutMs: 60_000, tmpDir: tmp })
        .catch((e: unknown) => e);
      expect((err as NodeJS.ErrnoException).code).toBe('ENOENT');
      await convert(plain);
      expect(offices()).toBe(4);
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      await office.close();
    }
  }, 180_000);

  it('leaves none of its sockets in /tmp when it replaces an office or ends', async () => {
    // LibreOffice puts them there whatever we say, and an office we kill does not remove them (office-pipes.ts).
    // Counted among those made during the test: an earlier process with this pid may have left some.
    const before = new Set(await readdir('/tmp'));
    const ours = async () =>
      (await readdir('/tmp')).filter(
        (f) => f.startsWith(`OSL_PIPE_${process.getuid?.() ?? 0}_pagecast-${process.pid}-`) && !before.has(f),
      );
    const office = new WarmOffice({ maxJobs: 2 });
    try {
      const plain = await docx('sockets.docx', 'sockets');
      for (let i = 0; i < 3; i += 1) {
        const r = await office.convert(plain, 'docx', { timeoutMs: 60_000, tmpDir: tmp });
        await r.cleanup();
        if (i === 0) expect(await ours()).toHaveLength(1); // the running office's
      }
      expect(office.generation).toBe(2); // the first office was stopped after its two documents
    } finally {
      await office.close();
    }
    expect(await ours()).toEqual([]);
  }, 120_000);

  it("ends the process's warm office at shutdown: its profile and socket go with it, and a later job starts anew", async () => {
    const before = new Set([...(await readdir(tmpdir())), ...(await readdir('/tmp'))]);
    const ours = async () =>
      [
        ...(await readdir(tmpdir())).filter((f) => f.startsWith(`pagecast-office-${process.pid}-`)),
        ...(await readdir('/tmp')).filter((f) =>
          f.startsWith(`OSL_PIPE_${process.getuid?.() ?? 0}_pagecast-${process.pid}-`),
        ),
      ].filter((f) => !before.has(f));
    const first = defaultOffice();
    const r = await first.convert(await docx('shutdown.docx', 'shutdown'), 'docx', { timeoutMs: 60_000, tmpDir: tmp });
    await r.cleanup();
    expect(await ours()).toHaveLength(2); // the running office's profile directory and socket
    await closeDefaultOffices();
    expect(await ours()).toEqual([]);
    expect(defaultOffice()).not.toBe(first);
    await closeDefaultOffices(); // one never started: nothing to end
  }, 90_000);

  it("names an office's sockets as LibreOffice does", () => {
    // seen in /tmp beside an office started with -env:UserInstallation=file:///tmp/osltest/prof
    expect(officePipePaths('file:///tmp/osltest/prof', 'p1', 0)).toEqual([
      '/tmp/OSL_PIPE_0_SingleOfficeIPC_dd6822269e1fd5aab5f16421732f2dfb',
      '/tmp/OSL_PIPE_0_p1',
      '/var/tmp/OSL_PIPE_0_SingleOfficeIPC_dd6822269e1fd5aab5f16421732f2dfb',
      '/var/tmp/OSL_PIPE_0_p1',
    ]);
  });

  it("sweeps an ended service's office whose pid now belongs to another process, and no running one's", async () => {
    // pids are reused: a live pid proves nothing about a directory written before that process started
    const root = await mkdtemp(join(tmpdir(), 'pagecast-sweep-'));
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    await once(other, 'spawn');
    const uid = process.getuid?.() ?? 0;
    const hourAgo = new Date(Date.now() - 3_600_000);
    const office = async (pid: number, suffix: string, mtime?: Date) => {
      const dir = join(root, `pagecast-office-${pid}-${suffix}`);
      await mkdir(join(dir, 'profile'), { recursive: true });
      const pipe = `/tmp/OSL_PIPE_${uid}_pagecast-${pid}-${suffix}`;
      await writeFile(pipe, ''); // nobody answers on it, as on a killed office's socket
      if (mtime) await utimes(dir, mtime, mtime);
      return [dir, pipe];
    };
    const there = async (paths: string[]) =>
      (
        await Promise.all(
          paths.map((p) =>
            stat(p).then(
              () => p,
              () => undefined,
            ),
          ),
        )
      ).filter(Boolean);
    const tag = randomBytes(4).toString('hex');
    try {
      const ourOld = await office(process.pid, `o${tag}`, hourAgo); // an earlier process with our pid
      const ourNow = await office(process.pid, `n${tag}`); // ours, running
      const otherOld = await office(other.pid as number, `o${tag}`, hourAgo); // its pid was reused since
      const otherNow = await office(other.pid as number, `n${tag}`); // the live process's own
      expect(await sweepEndedOffices(root)).toBe(2);
      expect(await there([...ourOld, ...otherOld])).toEqual([]);
      expect(await there([...ourNow, ...otherNow])).toEqual([...ourNow, ...otherNow]);
      await Promise.all([...ourNow, ...otherNow].map((p) => rm(p, { recursive: true, force: true })));
    } finally {
      other.kill('SIGKILL');
      await rm(root, { recursive: true, force: true });
    }
  });

  it('gives a document that fails in a warm office one more try in a fresh one', async () => {
    const office = new WarmOffice();
    // the office object is private: the test reaches it to end that LibreOffice under a running job
    const current = () => (office as unknown as { office?: { jobs: number; child: { pid?: number } } }).office;
    try {
      const first = await office.convert(await docx('w1.docx', 'warms the office'), 'docx', {
        timeoutMs: 60_000,
        tmpDir: tmp,
      });
      await first.cleanup();
      const job = office.convert(await docx('w2.docx', 'survives its office'), 'docx', {
        timeoutMs: 60_000,
        tmpDir: tmp,
      });
      // The second job has started in the warm office (its driving client is being spawned): end that office.
      while (current()?.jobs !== 2) await new Promise((r) => setTimeout(r, 1));
      process.kill(-(current()?.child.pid ?? 0), 'SIGKILL');
      const r = await job;
      expect(pdfText(r.pdfPath)).toContain('survives its office');
      await r.cleanup();
      expect(office.retries).toBe(1);
      expect(office.generation).toBe(2);
      // a failure in a fresh office is the document's: not tried again
      const err = await office
        .convert(await docx('w3.docx', 'too slow'), 'docx', { timeoutMs: 1, tmpDir: tmp })
        .catch((e: unknown) => e);
      expect((err as ConversionError).code).toBe('FILE_CONVERSION_TIMEOUT');
      expect(office.retries).toBe(1);
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      await office.close();
    }
  }, 120_000);

  it('the engine replaces the office after a document that embeds fonts, and keeps it after one that does not', async () => {
    const office = new WarmOffice();
    const pool = new RenderPool({ size: 1 });
    try {
      const run = async (path: string) =>
        (await convertDocument({ path }, { pool, office, tmpDir: tmp }, () => {})).pageCount;
      expect(await run(await docx('e1.docx', 'no fonts'))).toBe(1);
      expect(await run(await docx('e2.docx', 'no fonts either'))).toBe(1);
      expect(office.generation).toBe(1);
      const fonts = [{ name: 'word/fonts/font1.odttf', data: Buffer.alloc(64, 7) }];
      expect(await run(await docx('e3.docx', 'carries a font', fonts))).toBe(1);
      expect(await run(await docx('e4.docx', 'after the font'))).toBe(1);
      expect(office.generation).toBe(2);
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      await pool.close();
      await office.close();
    }
  }, 120_000);

  it('stops LibreOffice over its time limit and starts a fresh one for the next document', async () => {
    const office = new WarmOffice();
    try {
      const plain = await docx('slow.docx', 'plain');
      const err = await office.convert(plain, 'docx', { timeoutMs: 1, tmpDir: tmp }).catch((e: unknown) => e);
      expect((err as ConversionError).code).toBe('FILE_CONVERSION_TIMEOUT');
      const r = await office.convert(plain, 'docx', { timeoutMs: 60_000, tmpDir: tmp });
      expect(pdfText(r.pdfPath)).toContain('plain');
      await r.cleanup();
      expect(office.generation).toBe(2);
    } finally {
      await office.close();
    }
  }, 120_000);

  it('refuses a document when LibreOffice ends over its memory bound, without waiting for the time limit', async () => {
    const office = new WarmOffice({ maxMemoryBytes: 64 * 1024 * 1024 });
    try {
      const started = Date.now();
      const err = await office
        .convert(await docx('big.docx', 'too big'), 'docx', { timeoutMs: 60_000, tmpDir: tmp })
        .catch((e: unknown) => e);
      expect((err as ConversionError).code).toBe('FILE_CONVERSION_FAILED');
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      await office.close();
    }
  }, 90_000);

  it('dies with the service, however the service ends', async () => {
    const path = await docx('owner.docx', 'owned');
    const script = `
      import { WarmOffice } from ${JSON.stringify(new URL('../../src/conversion/index.ts', import.meta.url).href)};
      const office = new WarmOffice();
      await office.convert(${JSON.stringify(path)}, 'docx', { timeoutMs: 60000 });
      process.stdout.write('converted\\n');
      setInterval(() => {}, 1000);
    `;
    // what was there before: an earlier process with the service's pid may have left files of its own
    const before = new Set([...(await readdir(tmpdir())), ...(await readdir('/tmp'))]);
    // One process (tsx as a loader, not its runner, which would be a parent process of the service).
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const deadline = Date.now() + 60_000;
    while (!out.includes('converted') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(out).toContain('converted');
    const mark = `pipe,name=pagecast-${child.pid}-`;
    const running = () => {
      try {
        return execFileSync('pgrep', ['-f', mark]).toString().trim().split('\n').filter(Boolean).length;
      } catch {
        return 0; // pgrep exits 1 when nothing matches
      }
    };
    expect(running()).toBeGreaterThan(0);
    // what its office leaves: the profile directory and the accept pipe's socket, both named by the service's pid
    const leftovers = async () =>
      [
        ...(await readdir(tmpdir())).filter((f) => f.startsWith(`pagecast-office-${child.pid}-`)),
        ...(await readdir('/tmp')).filter((f) =>
          f.startsWith(`OSL_PIPE_${process.getuid?.() ?? 0}_pagecast-${child.pid}-`),
        ),
      ].filter((f) => !before.has(f));
    expect(await leftovers()).toHaveLength(2);
    // a service that runs keeps its office's files, whoever sweeps
    await sweepEndedOffices();
    expect(await leftovers()).toHaveLength(2);
    child.kill('SIGKILL');
    await once(child, 'exit');
    const until = Date.now() + 10_000;
    while (running() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(running()).toBe(0);

    // a killed service cannot remove them: the next converter's first office does (the service started again; the
    // first office of another test file's converter may also get there first)
    const next = new WarmOffice();
    try {
      const r = await next.convert(path, 'docx', { timeoutMs: 60_000, tmpDir: tmp });
      await r.cleanup();
    } finally {
      await next.close();
    }
    expect(await leftovers()).toEqual([]);
  }, 90_000);
});
