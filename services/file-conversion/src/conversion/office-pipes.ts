import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// LibreOffice makes its sockets in /tmp (/var/tmp when /tmp is not writable), whatever TMPDIR, OSL_SOCKET_PATH or
// -env:OSL_SOCKET_PATH say (tried): one per office for its single-instance IPC, and one for a pipe it accepts on. An
// office that exits cleanly removes them; one we kill (recycled, timed out, over its memory bound) leaves both, and a
// warm converter recycles its office every few dozen documents: 769 of them were in this machine's /tmp after the
// test runs of a few days. So whoever ends an office removes them.

const SOCKET_DIRS = ['/tmp', '/var/tmp'];

/**
 * The socket files of an office started with `-env:UserInstallation=<profileUrl>` (and `--accept=pipe,name=<pipe>`):
 * OSL_PIPE_<uid>_<name>. The IPC one is named by the MD5 of the profile URL in UTF-16LE, each byte in hex without
 * its leading zero (desktop/source/app/officeipcthread.cxx; checked against a real office's file).
 */
export function officePipePaths(profileUrl: string, acceptPipe?: string, uid = process.getuid?.() ?? 0): string[] {
  const digest = createHash('md5').update(Buffer.from(profileUrl, 'utf16le')).digest();
  const ipc = `SingleOfficeIPC_${[...digest].map((b) => b.toString(16)).join('')}`;
  const names = acceptPipe ? [ipc, acceptPipe] : [ipc];
  return SOCKET_DIRS.flatMap((dir) => names.map((name) => `${dir}/OSL_PIPE_${uid}_${name}`));
}

/** Removes an ended office's socket files (those that exist). */
export async function removeOfficePipes(profileUrl: string, acceptPipe?: string): Promise<void> {
  await Promise.all(officePipePaths(profileUrl, acceptPipe).map((p) => rm(p, { force: true }).catch(() => {})));
}

/**
 * A warm office's directory (profile inside) is `<tmp>/pagecast-office-<pid>-<suffix>` and its accept pipe
 * `pagecast-<pid>-<suffix>`: the service's pid and one random suffix, so that what an office leaves can be traced to
 * the service that started it.
 */
const WARM_OFFICE_DIR = /^pagecast-office-(\d+)-([A-Za-z0-9]+)$/;
export const warmOfficeDirPrefix = (pid = process.pid) => join(tmpdir(), `pagecast-office-${pid}-`);
export function warmOfficePipe(dir: string): string {
  const m = WARM_OFFICE_DIR.exec(dir.slice(dir.lastIndexOf('/') + 1));
  if (!m) throw new Error(`not a warm office directory: ${dir}`);
  return `pagecast-${m[1]}-${m[2]}`;
}
/** The UserInstallation URL of an office run in `dir` (its profile is `dir`/profile). */
export const officeProfileUrl = (dir: string): string => pathToFileURL(join(dir, 'profile')).href;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // there, but another user's
  }
}

/** The machine's boot time in seconds since the epoch (/proc/stat's btime), or undefined when /proc does not say. */
async function bootSeconds(): Promise<number | undefined> {
  const text = await readFile('/proc/stat', 'utf8').catch(() => '');
  const s = Number(/^btime (\d+)$/m.exec(text)?.[1]);
  return Number.isFinite(s) && s > 0 ? s : undefined;
}

/**
 * When the process `pid` started, in ms since the epoch (boot time plus its start in clock ticks), or undefined when
 * /proc does not say. Good to about a second: the boot time is in whole seconds.
 */
async function processStartMs(pid: number, boot: number | undefined): Promise<number | undefined> {
  if (boot === undefined) return undefined;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so count fields after the last ')'.
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]); // field 22, starttime
    // USER_HZ is 100 on every architecture Linux runs this service on (it is part of the kernel's ABI).
    return Number.isFinite(ticks) ? boot * 1000 + ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/** A process that started this long after an office's directory was last written cannot be its service. */
const PID_REUSE_MARGIN_MS = 5000;

/**
 * Whether the service that made an office directory (last written at `dirMtimeMs`) may still run. Its pid alone
 * does not say: pids are reused (pid_max is 32,768 on many machines, this one included), so a live pid that started
 * after the directory was last written is another process (its service wrote it, and nothing writes there after the
 * service and its office have ended). When the start time is unknown, the office is taken to be live: a leftover is
 * better than a running office's files removed.
 */
async function ownerMayRun(pid: number, dirMtimeMs: number, boot: number | undefined): Promise<boolean> {
  if (!processAlive(pid)) return false;
  // (this process too: a directory with our pid may be an earlier process's; the start of the process, not of this
  // thread, which performance.timeOrigin would give in a worker thread)
  const started = await processStartMs(pid, boot);
  return started === undefined || started <= dirMtimeMs + PID_REUSE_MARGIN_MS;
}

/** Whether something accepts on the socket file (an office that still runs); a second without an answer counts as yes. */
function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const done = (answer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(true), 1000);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false)); // ENOENT, ECONNREFUSED: a socket file with nobody behind it
  });
}

/**
 * Removes the directories and socket files of warm offices whose service has ended without stopping them (killed,
 * crashed, the machine stopped): the office dies with its service (office-server.ts), but its files stay, one set
 * per office started, in a temporary directory that lives as long as the machine. An office is left alone while its
 * service may run (ownerMayRun: its pid, and when that process started) or anything answers on its pipe (another pid
 * namespace sharing /tmp). Returns the number removed.
 */
export async function sweepEndedOffices(root = tmpdir()): Promise<number> {
  let removed = 0;
  const boot = await bootSeconds(); // once per sweep, not per office
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const m = WARM_OFFICE_DIR.exec(name);
    if (!m) continue;
    const dir = join(root, name);
    const mtime = await stat(dir).then(
      (st) => st.mtimeMs,
      () => undefined,
    );
    if (mtime === undefined || (await ownerMayRun(Number(m[1]), mtime, boot))) continue;
    const pipe = warmOfficePipe(dir);
    const sockets = officePipePaths(officeProfileUrl(dir), pipe).filter((p) => p.endsWith(`_${pipe}`));
    if ((await Promise.all(sockets.map(socketAnswers))).some(Boolean)) continue;
    await Promise.all([rm(dir, { recursive: true, force: true }), removeOfficePipes(officeProfileUrl(dir), pipe)]);
    removed++;
  }
  return removed;
}
