import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFailpoints, parseFailpoints, testClockRouter } from '../src/failpoints';
import { createHttpApp, type Listening, listen } from '../src/http';
import { createLogger } from '../src/logger';

const kitDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const failpointsModule = pathToFileURL(resolve(kitDir, 'src/failpoints.ts')).href;
const scratch = mkdtempSync(join(tmpdir(), 'pagecast-failpoints-'));
let runs = 0;
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A process that reaches billing.renewal-after-charge up to 200 times with PAGECAST_FAILPOINTS = `setting`; says how
 * many times it passed the point before it ended, and how it ended.
 */
function run(setting: string): Promise<{ passed: number; signal: NodeJS.Signals | null; code: number | null }> {
  // a file, not a pipe: a write to a file is done when writeSync returns, whatever kills the process next
  const file = join(scratch, `${runs++}.txt`);
  const script = `
    import { openSync, writeSync } from 'node:fs';
    const { createFailpoints, parseFailpoints } = await import(${JSON.stringify(failpointsModule)});
    const fp = createFailpoints('billing', parseFailpoints(process.env.SETTING));
    const out = openSync(process.env.OUT, 'w');
    for (let i = 0; i < 200; i++) {
      fp.hit('billing.renewal-after-charge');
      writeSync(out, '.');
    }`;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: kitDir,
      env: { ...process.env, SETTING: setting, OUT: file },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', fail);
    child.once('close', (code, signal) => done({ passed: readFileSync(file, 'utf8').length, signal, code }));
  });
}

describe('crash points', () => {
  it('kill the process at the point (SIGKILL) at the draw the seed gives, the same draw for the same seed', async () => {
    const first = await run('seed=7,billing.renewal-after-charge=crash@0.2');
    expect(first.signal).toBe('SIGKILL');
    expect(first.passed).toBeLessThan(200);
    expect(await run('seed=7,billing.renewal-after-charge=crash@0.2')).toEqual(first);
    // other seeds die elsewhere (a fixed set of seeds: the outcome is fixed too)
    const others = await Promise.all(
      [1, 2, 3].map((seed) => run(`seed=${seed},billing.renewal-after-charge=crash@0.2`)),
    );
    expect(new Set([first, ...others].map((r) => r.passed)).size).toBeGreaterThan(1);
  }, 60_000);

  it('kill at the first hit when certain, and never when off, at 0 or for another service', async () => {
    expect(await run('billing.renewal-after-charge')).toEqual({ passed: 0, signal: 'SIGKILL', code: null });
    for (const setting of [
      '',
      'billing.clock',
      'seed=1,billing.renewal-after-charge=crash@0',
      'billing.transfer-after-buyer',
    ]) {
      expect(await run(setting), setting).toEqual({ passed: 200, signal: null, code: 0 });
    }
  }, 60_000);
});

describe('the test clock router', () => {
  let server: Listening;
  const moved: string[] = [];
  const clock = createFailpoints('billing', parseFailpoints('billing.clock')).clock;
  beforeAll(async () => {
    const { app, finish } = createHttpApp({ name: 'billing', logger: createLogger('failpoints-test', 'silent') });
    app.use(
      testClockRouter(clock, {
        afterMove: async () => {
          moved.push(clock.now().toISOString());
          return { ran: true };
        },
        runJobs: async () => ({ jobs: 'ran' }),
      }),
    );
    finish();
    server = await listen(app, 0);
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('sets the time ({at}), moves it forward ({ms}), and reports what runs after a move', async () => {
    expect(await post('/internal/test/clock', { at: '2040-02-03T00:00:05.000Z' })).toEqual({
      status: 200,
      body: { now: '2040-02-03T00:00:05.000Z', ran: true },
    });
    expect(await post('/internal/test/clock', { ms: 86_400_000 })).toEqual({
      status: 200,
      body: { now: '2040-02-04T00:00:05.000Z', ran: true },
    });
    expect(moved).toEqual(['2040-02-03T00:00:05.000Z', '2040-02-04T00:00:05.000Z']);
    expect(await post('/internal/test/run-jobs', {})).toEqual({ status: 200, body: { jobs: 'ran' } });
  });

  it('refuses a move that is neither or both, or backwards, with VALIDATION and moves nothing', async () => {
    const before = clock.now().toISOString();
    for (const body of [{}, { at: '2040-01-01T00:00:00Z', ms: 1 }, { ms: -1 }, { at: 'tomorrow' }]) {
      const res = await post('/internal/test/clock', body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 'VALIDATION']);
    }
    expect(clock.now().toISOString()).toBe(before);
  });

  it('cannot be built on a clock that is not adjustable (a service without its clock failpoint)', () => {
    const real = createFailpoints('billing', parseFailpoints('')).clock;
    expect(() => testClockRouter(real)).toThrow(/adjustable/);
  });
});
