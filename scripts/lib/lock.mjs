// A lock between processes of this checkout (two `npm start`s, a test run beside a start): a directory made with
// mkdir, which exists or not atomically, holding the owner's pid. A lock whose owner is gone is taken over, so a
// killed build never blocks the next one.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './infra.mjs';

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

/**
 * Runs `fn` holding the lock `name` (node_modules/.cache/pagecast-locks/<name>), waiting while another live process
 * holds it; `onWait` is told once, so a waiting start says why it waits.
 */
export async function withLock(name, fn, { onWait = () => {} } = {}) {
  const dir = join(root, 'node_modules', '.cache', 'pagecast-locks');
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, name);
  let told = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      let owner = Number.NaN;
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        // made but its pid not yet written: its owner is between two calls
      }
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && !alive(owner)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!told) {
        told = true;
        onWait(Number.isInteger(owner) ? owner : null);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
