import { afterAll, describe, expect, it } from 'vitest';
import { createS3 } from '../src/s3';
import { testEnv, uniqueName } from '../src/testing';

const env = testEnv();
const s3 = createS3({
  endpoint: env.S3_ENDPOINT,
  accessKey: env.S3_ACCESS_KEY,
  secretKey: env.S3_SECRET_KEY,
  bucket: uniqueName('kit-s3'),
});

afterAll(async () => {
  const objects = await s3.client.listObjectsV2(s3.bucket, '', true).toArray();
  await s3.client.removeObjects(
    s3.bucket,
    objects.map((o: { name: string }) => o.name),
  );
  await s3.client.removeBucket(s3.bucket);
});

describe('s3 (real MinIO)', () => {
  it('ensureBucket creates the bucket and is idempotent, also when called concurrently', async () => {
    expect(await s3.client.bucketExists(s3.bucket)).toBe(false);
    expect(await s3.ready()).toBe(false);
    await Promise.all([s3.ensureBucket(), s3.ensureBucket()]);
    await s3.ensureBucket();
    expect(await s3.client.bucketExists(s3.bucket)).toBe(true);
    expect(await s3.ready()).toBe(true);
  });

  it('stores and reads back an object byte for byte', async () => {
    const body = Buffer.from('ページ画像 🖼️ page image bytes');
    await s3.client.putObject(s3.bucket, 'pages/p1.txt', body, body.length, { 'Content-Type': 'text/plain' });
    const stream = await s3.client.getObject(s3.bucket, 'pages/p1.txt');
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
    const stat = await s3.client.statObject(s3.bucket, 'pages/p1.txt');
    expect(stat.size).toBe(body.length);
  });

  it('wrong credentials are refused', async () => {
    const bad = createS3({
      endpoint: env.S3_ENDPOINT,
      accessKey: 'nobody',
      secretKey: 'wrong-secret-1',
      bucket: s3.bucket,
    });
    await expect(bad.ensureBucket()).rejects.toThrow();
    expect(await bad.ready()).toBe(false);
  });
});
