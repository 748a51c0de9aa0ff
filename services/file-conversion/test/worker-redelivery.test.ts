import { fileURLToPath } from 'node:url';
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  corpus,
  destroyService,
  fileBytes,
  newUser,
  startService,
  type TestService,
  upload,
  waitConverted,
  waitFor,
} from './helpers';

const ACK_WAIT_MS = 3000;
let api: TestService;
let worker: TestService | undefined;
let child: ChildProcess | undefined;

beforeAll(async () => {
  // The API alone: jobs go to the worker processes of this test.
  api = await startService({ settings: { CONVERSION_ROLE: 'api' } });
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await worker?.close();
  await destroyService(api);
});

describe('conversion workers', () => {
  it('a job whose worker process dies mid-conversion is completed by another worker', async () => {
    // A separate worker process (CONVERSION_ROLE=worker), as on another machine.
    // node itself (tsx as a loader), so the pid killed is the worker's own, not a wrapper's.
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)), // the service folder, wherever vitest was started
      env: {
        ...process.env,
        ...api.env,
        CONVERSION_ROLE: 'worker',
        CONVERSION_QUEUE: api.settings.CONVERSION_QUEUE ?? '',
        CONVERSION_ACK_WAIT_MS: String(ACK_WAIT_MS),
        CONVERSION_CONCURRENCY: '1',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const owner = newUser();
    const up = await upload(svc(), owner, await fileBytes(join(corpus, 'pdf/tracemonkey.pdf')), { title: 'tm' });
    expect(up.status).toBe(200);
    const id: string = up.body.id;
    // The child converts: wait for its first page, then kill it without a chance to ack or clean up.
    await waitFor(
      'first page from the worker process',
      async () => ((await call(api, owner, 'GET', `/api/files/${id}`)).body.pagesReady ?? 0) > 0,
      60_000,
    );
    child.kill('SIGKILL');
    const partial = (await call(api, owner, 'GET', `/api/files/${id}`)).body;
    expect(partial.status).toBe('processing');
    expect(partial.pagesReady).toBeLessThan(14);

    // Another worker joins; after the ack wait the job is redelivered to it.
    worker = await startService({
      share: api,
      settings: { CONVERSION_ROLE: 'worker', CONVERSION_ACK_WAIT_MS: ACK_WAIT_MS, CONVERSION_CONCURRENCY: 1 },
    });
    const done = await waitConverted(api, owner, id, 120_000);
    expect(done).toMatchObject({ status: 'private', pageCount: 14, pagesReady: 14 });
    const pages = (await call(api, owner, 'GET', `/api/files/${id}/pages`)).body;
    expect(pages.map((p: { pageNumber: number }) => p.pageNumber)).toEqual([...Array(14).keys()].map((i) => i + 1));
    const doc = await api.server.context.data.files.findById(id);
    expect(doc?.conversion.attempts).toBeGreaterThanOrEqual(2);
  }, 180_000);
});

const svc = () => api;
