import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';

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
