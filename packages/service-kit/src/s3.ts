import * as Minio from 'minio';

export interface S3Config {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
}

export interface S3 {
  client: Minio.Client;
  bucket: string;
  /** Creates the bucket unless it exists; safe to call from several processes at once. */
  ensureBucket(): Promise<void>;
  /** Readiness: the bucket answers. */
  ready(): Promise<boolean>;
}

/** Refused keys or a refused bucket name: waiting does not mend them (a start fails at once). */
export const permanentS3Error = (err: unknown) =>
  ['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'InvalidBucketName'].includes(
    (err as { code?: string })?.code ?? '',
  );

export function createS3(cfg: S3Config): S3 {
  const url = new URL(cfg.endpoint);
  const useSSL = url.protocol === 'https:';
  const client = new Minio.Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: cfg.accessKey,
    secretKey: cfg.secretKey,
    pathStyle: true,
    region: 'us-east-1',
  });
  return {
    client,
    bucket: cfg.bucket,
    async ensureBucket() {
      if (await client.bucketExists(cfg.bucket)) return;
      try {
        await client.makeBucket(cfg.bucket, 'us-east-1');
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw err;
      }
    },
    async ready() {
      try {
        return await client.bucketExists(cfg.bucket);
      } catch {
        return false;
      }
    },
  };
}
