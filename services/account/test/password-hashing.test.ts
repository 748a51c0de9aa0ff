import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHashWorkers, HashingUnavailable } from '../src/domain/hash-workers';
import { ARGON2_PARAMS, hashPassword, verifyPassword } from '../src/domain';

describe('password hashing threads', () => {
  it('hands each thread one hash and the next behind it, keeps the rest in line, and answers every one', async () => {
    const workers = createHashWorkers(2);
    try {
      const stored = await workers.hash('the right password', ARGON2_PARAMS);
      expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      const checks = Array.from({ length: 7 }, (_, i) =>
        workers.verify(stored, i % 2 ? 'the right password' : 'a wrong one'),
      );
      // Two threads, two hashes each; the other three wait here, in order.
      expect([workers.running, workers.waiting]).toEqual([4, 3]);
      expect(await Promise.all(checks)).toEqual([false, true, false, true, false, true, false]);
      expect([workers.running, workers.waiting]).toEqual([0, 0]);
    } finally {
      await workers.close();
    }
  });

  it('lets the hashes asked for finish on close, then refuses new ones as unavailable', async () => {
    const workers = createHashWorkers(1);
    const asked = [
      workers.hash('one', ARGON2_PARAMS),
      workers.hash('two', ARGON2_PARAMS),
      workers.hash('three', ARGON2_PARAMS),
    ];
    await workers.close();
    for (const h of await Promise.all(asked)) expect(h).toMatch(/^\$argon2id\$/);
    await expect(workers.verify('x', 'y')).rejects.toBeInstanceOf(HashingUnavailable);
  });

  it('answers an unreadable stored hash, a missing one and a wrong password alike: false', async () => {
    const stored = await hashPassword('correct horse');
    expect(await verifyPassword(stored, 'correct horse')).toBe(true);
    expect(await verifyPassword(stored, 'wrong horse')).toBe(false);
    expect(await verifyPassword(null, 'correct horse')).toBe(false);
    expect(await verifyPassword('not a hash', 'correct horse')).toBe(false);
  });

  it('does not keep a process alive once its hashes are done (a command-line tool exits)', () => {
    const tsx = join(__dirname, '../../../node_modules/.bin/tsx');
    const script = `import { hashPassword, verifyPassword } from ${JSON.stringify(join(__dirname, '../src/domain/passwords.ts'))};
      const h = await hashPassword('pw'); console.log(await verifyPassword(h, 'pw'));`;
    const run = spawnSync(tsx, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('true');
    expect(run.status).toBe(0);
  });
});
