// scripts/lib/lock.mjs: builds and compiles of two processes of one checkout take turns, and a lock left by a killed
// process does not block the next one.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the scripts, without types
import { withLock } from '../../scripts/lib/lock.mjs';

const root = join(import.meta.dirname, '..', '..');
const lockDir = (name: string) => join(root, 'node_modules', '.cache', 'pagecast-locks', name);

describe('process lock', () => {
  it('runs holders one at a time', async () => {
    const name = `test-serial-${process.pid}`;
    const events: string[] = [];
    const hold = (tag: string) =>
      withLock(name, async () => {
        events.push(`${tag}+`);
        await new Promise((r) => setTimeout(r, 50));
        events.push(`${tag}-`);
      });
    await Promise.all([hold('a'), hold('b'), hold('c')]);
    // every holder leaves before the next enters
    for (let i = 0; i < events.length; i += 2) expect(events[i]?.[0]).toBe(events[i + 1]?.[0]);
    expect(existsSync(lockDir(name))).toBe(false);
  });

  it('takes over a lock whose owner is gone, and waits for a live one', async () => {
    const name = `test-stale-${process.pid}`;
    // a process that exits at once: its pid is then free (not reused this soon)
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => gone.on('exit', r));
    mkdirSync(lockDir(name), { recursive: true });
    writeFileSync(join(lockDir(name), 'pid'), String(gone.pid));
    expect(await withLock(name, async () => 'ran')).toBe('ran');

    // a live owner (a sleeping child): the lock waits until it is released
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    mkdirSync(lockDir(name), { recursive: true });
    writeFileSync(join(lockDir(name), 'pid'), String(live.pid));
    let waited = false;
    let ran = false;
    const taking = withLock(
      name,
      async () => {
        ran = true;
        return 'after';
      },
      { onWait: () => (waited = true) },
    );
    while (!waited) await new Promise((r) => setTimeout(r, 10));
    // it polls every 250 ms: a few rounds pass while the owner lives
    await new Promise((r) => setTimeout(r, 600));
    expect(ran).toBe(false);
    live.kill('SIGKILL');
    await new Promise((r) => live.on('exit', r));
    expect(await taking).toBe('after');
  });
});
