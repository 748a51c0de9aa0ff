// The local servers of a profile are reused when already running, which is only right when they are this
// checkout's: a MinIO started by another checkout has other generated keys.
import { describe, expect, it } from 'vitest';
import { checkS3Credentials, infraEnv } from '../scripts/lib/infra.mjs';

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
