// The local servers of a profile are reused when already running, which is only right when they are this
// checkout's: a MinIO started by another checkout has other generated keys.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkS3Credentials, corpusDir, ferretdbGogc, ferretdbProcs, infraEnv, root } from '../scripts/lib/infra.mjs';

describe('reusing a running S3 server', () => {
  const env = infraEnv('test', {});

  it("accepts the test profile's MinIO with this checkout's keys", async () => {
    expect(
      await checkS3Credentials({
        endpoint: env.S3_ENDPOINT,
        accessKey: env.S3_ACCESS_KEY,
        secretKey: env.S3_SECRET_KEY,
      }),
    ).toBeNull();
  });

  it('refuses one that does not take the keys, saying what to do', async () => {
    const problem = await checkS3Credentials({
      endpoint: env.S3_ENDPOINT,
      accessKey: env.S3_ACCESS_KEY,
      secretKey: `${env.S3_SECRET_KEY}-other-checkout`,
    });
    expect(problem).toMatch(/refuses this checkout's keys/);
    expect(problem).toMatch(/infra -- down/);
  });
});

describe("FerretDB's scheduler threads", () => {
  it('are half the cores, at least one, unless FERRETDB_GOMAXPROCS says otherwise', () => {
    expect(ferretdbProcs({}, 2)).toBe('1');
    expect(ferretdbProcs({}, 1)).toBe('1');
    expect(ferretdbProcs({}, 8)).toBe('4');
    expect(ferretdbProcs({ FERRETDB_GOMAXPROCS: '3' }, 2)).toBe('3');
    expect(ferretdbProcs({ FERRETDB_GOMAXPROCS: 'many' }, 6)).toBe('3');
  });
});

describe("FerretDB's garbage-collector target", () => {
  it('is 400 unless FERRETDB_GOGC gives a positive whole number or off', () => {
    expect(ferretdbGogc({})).toBe('400');
    expect(ferretdbGogc({ FERRETDB_GOGC: '100' })).toBe('100');
    expect(ferretdbGogc({ FERRETDB_GOGC: ' off ' })).toBe('off');
    for (const bad of ['0', '-5', '1e3', 'fast', '']) expect(ferretdbGogc({ FERRETDB_GOGC: bad })).toBe('400');
  });
});

describe('the documents the tests upload', () => {
  it('come from PAGECAST_CORPUS, else shared/corpus beside the checkout, else /work/shared/corpus', () => {
    expect(corpusDir({ PAGECAST_CORPUS: '/elsewhere/corpus' })).toBe('/elsewhere/corpus');
    const beside = path.resolve(root, '..', 'shared', 'corpus');
    expect(corpusDir({})).toBe(existsSync(beside) ? beside : '/work/shared/corpus');
    // and the folder the scripts hand the tests holds the real documents
    expect(existsSync(path.join(corpusDir({}), 'pdf', 'vertical.pdf'))).toBe(true);
  });
});
