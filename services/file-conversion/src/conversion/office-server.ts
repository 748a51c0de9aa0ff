import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConversionError } from './errors.ts';
import { killGroup } from './process-group.ts';
import { removeOfficePipes, sweepEndedOffices, warmOfficeDirPrefix, warmOfficePipe } from './office-pipes.ts';
import { canIsolateNetwork, type OfficePdf, officeProfileUrl, writeOfficeProfile } from './office-to-pdf.ts';

export interface WarmOfficeOptions {
  /** Documents one LibreOffice converts before it is replaced by a fresh one (fresh profile). */
  maxJobs?: number;
  /** 'auto': LibreOffice runs without network (unshare -n) when the system allows it. */
  isolateNetwork?: 'auto' | 'off';
  /** Address space of the office (prlimit --as): a document that needs more makes it fail, and it is replaced. */
  maxMemoryBytes?: number;
  soffice?: string;
  /** Debian's python3, the one python3-uno is built for. */
  python?: string;
}

export interface WarmConvertOptions {
  /** Where the per-job directory (input copy, PDF) is made (default: the OS temp dir). */
  tmpDir?: string;
  timeoutMs: number;
  /** This document may leave state in the office (e.g. embedded fonts it installs): replace the office after it. */
  recycleAfter?: boolean;
}

/** The failure of a document LibreOffice cannot open at all: the document's, wherever it runs. */
const UNREADABLE = /could not open this document/;

const CLIENT = fileURLToPath(new URL('./office-convert.py', import.meta.url));
const FILTERS = { docx: 'writer_pdf_Export', pptx: 'impress_pdf_Export' } as const;

interface Office {
  child: ChildProcess;
  dir: string;
  pipe: string;
  jobs: number;
  exited: boolean;
}

/**
 * One long-lived LibreOffice that converts documents one at a time, driven over a local UNO pipe by a small python
 * client: the ~1.5 s start of LibreOffice is paid once per `maxJobs` documents, not per document. The sandbox is
 * the one-shot converter's: no network (the office runs in its own network namespace; the pipe is a file, so the
 * client still reaches it), a memory bound (prlimit), the same profile (macros never run, untrusted links blocked)
 * and each document opened with macros off and links never updated. One document's state does not reach the next beyond what LibreOffice
 * keeps in memory for open documents (closed after each job): the office is replaced, with a new profile, after
 * `maxJobs` documents, after any error or time-out, and after a document that carries embedded fonts.
 * If the service dies, the office dies with it (it watches the service's end of a pipe).
 */
export class WarmOffice {
  private readonly maxJobs: number;
  private readonly isolate: boolean;
  private readonly soffice: string;
  private readonly maxMemoryBytes: number;
  private readonly python: string;
  private office: Office | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private swept = false;
  /** Offices started so far (tests check that a recycle really starts a new one). */
  generation = 0;
  /** Documents tried again in a fresh office after failing in a warm one (see run). */
  retries = 0;

  constructor(opts: WarmOfficeOptions = {}) {
    this.maxJobs = opts.maxJobs ?? 50;
    this.isolate = opts.isolateNetwork !== 'off' && canIsolateNetwork();
    this.soffice = opts.soffice ?? 'soffice';
    this.maxMemoryBytes = opts.maxMemoryBytes ?? 4 * 1024 ** 3;
    this.python = opts.python ?? '/usr/bin/python3';
  }

  get networkIsolated(): boolean {
    return this.isolate;
  }

  /** Converts one document; jobs run one after another in arrival order. */
  convert(inputPath: string, kind: 'pptx' | 'docx', opts: WarmConvertOptions): Promise<OfficePdf> {
    const job = this.queue.then(() => this.run(inputPath, kind, opts));
    this.queue = job.catch(() => {});
    return job;
  }

  /**
   * A document that fails in an office that converted others before it gets one more try in a fresh office (the
   * failed one is stopped either way): what the earlier documents left in the office may be the cause, and one
   * document's state must not decide another's fate. (The failure that first showed this, a client killed by a
   * signal, was the client's own crash at exit, in fresh offices too: office-convert.py now leaves without the
   * interpreter's teardown.) Not retried: a time-out, a document LibreOffice cannot open, and any failure in a fresh
   * office (the document's own).
   */
  private async run(inputPath: string, kind: 'pptx' | 'docx', opts: WarmConvertOptions): Promise<OfficePdf> {
    const attempt: { warm?: boolean } = {};
    try {
      return await this.runOnce(inputPath, kind, opts, attempt);
    } catch (err) {
      const again =
        attempt.warm === true &&
        err instanceof ConversionError &&
        err.code === 'FILE_CONVERSION_FAILED' &&
        !this.closed &&
        !UNREADABLE.test(err.message);
      if (!again) throw err;
      this.retries++;
      return this.runOnce(inputPath, kind, opts, {});
    }
  }

  private async runOnce(
    inputPath: string,
    kind: 'pptx' | 'docx',
    opts: WarmConvertOptions,
    attempt: { warm?: boolean },
  ): Promise<OfficePdf> {
    if (this.closed) throw new ConversionError('FILE_CONVERSION_FAILED', 'the office converter is closed');
    const jobDir = await mkdtemp(join(opts.tmpDir ?? tmpdir(), 'pagecast-lo-'));
    const cleanup = () => rm(jobDir, { recursive: true, force: true });
    let ok = false;
    try {
      // Our own name and extension: LibreOffice picks its import filter from them, and the member's name is not trusted.
      const input = join(jobDir, `document.${kind}`);
      await copyFile(inputPath, input);
      const pdfPath = join(jobDir, 'document.pdf');
      const office = this.office && !this.office.exited ? this.office : await this.start();
      office.jobs++;
      attempt.warm = office.jobs > 1;
      await this.client(office, input, pdfPath, FILTERS[kind], opts.timeoutMs);
      const size = await stat(pdfPath).then(
        (s) => s.size,
        () => 0,
      );
      if (size === 0)
        throw new ConversionError('FILE_CONVERSION_FAILED', 'LibreOffice produced no PDF for this document');
      ok = true;
      if (opts.recycleAfter || office.jobs >= this.maxJobs) await this.stop();
      return { pdfPath, networkIsolated: this.isolate, cleanup };
    } catch (err) {
      await cleanup();
      throw err;
    } finally {
      // Any failure may have left the office in a bad state: the next document gets a new one.
      if (!ok) await this.stop();
    }
  }

  private async start(): Promise<Office> {
    await this.stop();
    if (!this.swept) {
      // what offices of an earlier run of the service left when it was killed (sweepEndedOffices says how)
      this.swept = true;
      await sweepEndedOffices().catch(() => 0);
    }
    const dir = await mkdtemp(warmOfficeDirPrefix());
    const profile = await writeOfficeProfile(dir);
    const pipe = warmOfficePipe(dir);
    const args = [
      `-env:UserInstallation=${profile}`,
      '--headless',
      '--invisible',
      '--norestore',
      '--nolockcheck',
      '--nodefault',
      '--nologo',
      `--accept=pipe,name=${pipe};urp;StarOffice.ComponentContext`,
    ];
    const limited = ['prlimit', `--as=${this.maxMemoryBytes}`, '--', this.soffice, ...args];
    const cmd = this.isolate ? ['unshare', '-n', '--', ...limited] : limited;
    // The shell leads a process group holding the office (soffice forks soffice.bin) and kills the whole group when
    // the office ends (a crash: we see the exit) or when our end of its stdin closes (we stopped it, or this process
    // died however it died).
    // (fd 3 keeps our pipe: a background command's own stdin is /dev/null.)
    const watch = 'exec 3<&0; "$@" </dev/null & office=$!; (read _ <&3; kill -KILL 0) & wait $office; kill -KILL 0';
    const child = spawn('sh', ['-c', watch, 'sh', ...cmd], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      // HOME inside the office's directory: nothing of LibreOffice's lands in the service user's home.
      env: { ...process.env, HOME: dir, SAL_USE_VCLPLUGIN: 'svp' },
    });
    child.unref();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    const office: Office = { child, dir, pipe, jobs: 0, exited: false };
    child.on('exit', () => {
      office.exited = true;
    });
    child.on('error', () => {
      office.exited = true;
    });
    this.office = office;
    this.generation++;
    return office;
  }

  private client(office: Office, input: string, output: string, filter: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (office.exited) {
        reject(new ConversionError('FILE_CONVERSION_FAILED', 'LibreOffice could not start'));
        return;
      }
      const child = spawn(this.python, [CLIENT, office.pipe, input, output, filter, String(timeoutMs / 1000)], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => {
        if (stderr.length < 4000) stderr += d.toString();
      });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
      // The office died under the job (e.g. over its memory bound): no answer will come.
      const officeGone = () => child.kill('SIGKILL');
      office.child.once('exit', officeGone);
      child.on('error', (err) => {
        clearTimeout(timer);
        reject(new ConversionError('FILE_CONVERSION_FAILED', `LibreOffice could not be driven: ${err.message}`));
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        office.child.off('exit', officeGone);
        if (timedOut) reject(new ConversionError('FILE_CONVERSION_TIMEOUT', 'LibreOffice took too long'));
        else if (code === 0) resolve();
        else if (office.exited)
          reject(new ConversionError('FILE_CONVERSION_FAILED', 'LibreOffice stopped on this document'));
        else if (code === 3) {
          reject(new ConversionError('FILE_CONVERSION_FAILED', 'LibreOffice could not open this document'));
        } else {
          reject(
            new ConversionError(
              'FILE_CONVERSION_FAILED',
              `LibreOffice failed (${signal ?? code}): ${stderr.slice(-500)}`,
            ),
          );
        }
      });
    });
  }

  /** Ends the current office (if any) and removes its profile. */
  private async stop(): Promise<void> {
    const office = this.office;
    this.office = undefined;
    if (!office) return;
    if (!office.exited) {
      const exited = new Promise((r) => office.child.once('exit', r));
      office.child.stdin?.end();
      killGroup(office.child);
      await exited;
    }
    await Promise.all([
      rm(office.dir, { recursive: true, force: true }),
      removeOfficePipes(officeProfileUrl(office.dir), office.pipe),
    ]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    await this.stop();
  }
}
