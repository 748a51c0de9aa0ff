import type { ChildProcess } from 'node:child_process';

/**
 * Kills the whole process group of a child started with `detached: true` (LibreOffice's launcher and soffice.bin,
 * the MuPDF renderer): whatever it started goes with it, even after the leader itself exited.
 */
export function killGroup(child: ChildProcess | undefined): void {
  if (!child?.pid) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
