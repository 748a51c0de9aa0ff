import { spawn } from 'node:child_process';
import { ConversionError } from './errors.ts';
import { canIsolateNetwork } from './office-to-pdf.ts';
import type { RenderSlot } from './pool.ts';
import { killGroup } from './process-group.ts';

export interface SandboxRun {
  /** Working directory (the job's scratch directory). */
  cwd: string;
  /** Address-space limit (prlimit --as). */
  memoryMb: number;
  /** CPU-time limit (prlimit --cpu). */
  cpuSeconds: number;
  isolateNetwork: 'auto' | 'off';
  /** The file's time limit: the whole process group is killed when it fires. */
  signal?: AbortSignal;
  /** The pool slot the run holds, so that closing the pool stops it. */
  slot?: RenderSlot;
  /** Standard output, line by line (ffmpeg's -progress). */
  onLine?: (line: string) => void;
  /** Keep standard output whole (ffprobe's JSON), up to this many bytes. */
  captureStdout?: number;
}

export interface SandboxResult {
  /** 'ok', 'exit code N', 'signal SIG' or 'not started: ...' */
  how: string;
  stdout: string;
  /** The last 4 KB of standard error. */
  stderr: string;
}

/**
 * Runs a converter program kept apart from the service, as the PDF renderer and the HEIC decoder are: no network
 * (`unshare -n`, when the system allows it), an address-space and a CPU-time limit (`prlimit`), its own process group
 * killed on the file's time limit, and only PATH in its environment.
 */
export async function runSandboxed(cmd: string, args: string[], opts: SandboxRun): Promise<SandboxResult> {
  const run = ['prlimit', `--as=${opts.memoryMb * 1024 * 1024}`, `--cpu=${opts.cpuSeconds}`, '--', cmd, ...args];
  const [program, ...rest] =
    opts.isolateNetwork === 'auto' && canIsolateNetwork() ? ['unshare', '-n', '--', ...run] : run;
  if (opts.signal?.aborted) throw abortReason(opts.signal);
  const child = spawn(program as string, rest, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: opts.cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
  });
  if (opts.slot) opts.slot.child = child;
  let stdout = '';
  let pending = '';
  child.stdout?.on('data', (d: Buffer) => {
    const text = d.toString();
    if (opts.captureStdout && stdout.length < opts.captureStdout) stdout += text;
    if (opts.onLine) {
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) opts.onLine(line);
    }
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4096);
  });
  const exited = new Promise<string>((resolve) => {
    child.once('error', (err) => resolve(`not started: ${err.message}`));
    child.once('close', (code, sig) => resolve(sig ? `signal ${sig}` : code === 0 ? 'ok' : `exit code ${code}`));
  });
  const signal = opts.signal;
  let onAbort: (() => void) | undefined;
  const aborted = signal
    ? new Promise<never>((_, reject) => {
        onAbort = () => reject(abortReason(signal));
        signal.addEventListener('abort', onAbort, { once: true });
      })
    : undefined;
  try {
    const how = await (aborted ? Promise.race([exited, aborted]) : exited);
    return { how, stdout, stderr };
  } catch (err) {
    killGroup(child);
    throw err;
  } finally {
    if (signal && onAbort) signal.removeEventListener('abort', onAbort);
    if (opts.slot) opts.slot.child = undefined;
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new ConversionError('FILE_CONVERSION_TIMEOUT', 'aborted');
}
