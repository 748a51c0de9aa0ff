// The clustered engines (`npm start -- --cluster`, PAGECAST_CLUSTER=1): NATS as three JetStream nodes whose streams
// and buckets are kept in three copies, and MinIO as four nodes of one erasure-coded set behind nginx. Started here by
// the project's own scripts on the test profile's cluster ports (beside its single servers), then each engine loses a
// node (SIGKILL) in the middle of use: nothing written before is lost and writing goes on; the node comes back.
import { streams } from '@pagecast/contracts';
import { connectNats, createLogger, createS3, ensureStreams, type Nats, openKeyValue } from '@pagecast/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterPorts, killServer, up } from '../scripts/lib/infra.mjs';

const env = { ...process.env, PAGECAST_CLUSTER: '1' } as NodeJS.ProcessEnv;
for (const k of ['NATS_URL', 'S3_ENDPOINT', 'NATS_REPLICAS']) delete env[k];
const ports = clusterPorts('test');
const logger = createLogger('cluster-test', 'warn');

let infra: Awaited<ReturnType<typeof up>>;
let nats: Nats;

const kill = (name: string) => killServer('test', name);
const restarted: Array<Awaited<ReturnType<typeof up>>> = [];
/** Starts again whatever of the cluster is not running (up() skips the members still up). */
async function restart(only: string[]) {
  restarted.push(await up({ profile: 'test', only, env, detached: true }));
}

async function until<T>(what: string, f: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await f();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what}: not within ${ms / 1000} s (${last instanceof Error ? last.message : String(last)})`);
}

beforeAll(async () => {
  infra = await up({ profile: 'test', only: ['nats', 's3'], env, detached: true });
  expect(infra.env.NATS_URL.split(',')).toHaveLength(3);
  expect(infra.env.NATS_REPLICAS).toBe('3');
  nats = await connectNats(infra.env.NATS_URL, logger, 'cluster-test', { replicas: 3 });
  await until('a JetStream meta leader', async () => {
    await ensureStreams(nats.jsm);
    return true;
  });
}, 300_000);

afterAll(async () => {
  await nats?.nc.drain();
  // Ends only what this file started (members already running before it are left as they were).
  await infra?.stop();
  for (const r of restarted) await r.stop();
});

describe('NATS as a three-node JetStream cluster', () => {
  it('keeps every stream and bucket the services declare in three copies', async () => {
    for (const def of streams) {
      expect((await nats.jsm.streams.info(def.name)).config.num_replicas, def.name).toBe(3);
      // a cluster formed a moment ago may still be electing the stream's leader: wait for it, then its two replicas
      const info = await until(`${def.name}: a leader and two replicas`, async () => {
        const i = await nats.jsm.streams.info(def.name);
        return i.cluster?.leader ? i : undefined;
      });
      expect(info.cluster?.replicas ?? [], def.name).toHaveLength(2);
    }
    const kv = await openKeyValue(nats, 'cluster_test_bucket', { ttlMs: 60_000 });
    expect((await kv.status()).replicas).toBe(3);
  });

  it('loses no acknowledged event when the leader of its stream is killed, and goes on', async () => {
    const stream = streams[0] as (typeof streams)[number];
    const subject = stream.subjects[0]?.replace('>', 'cluster-test').replace('*', 'cluster-test') as string;
    const before = await nats.js.publish(subject, 'before', { msgID: `cluster-before-${Date.now()}` });
    const leader = (await nats.jsm.streams.info(stream.name)).cluster?.leader as string;
    const node = `nats-${leader.split('-').at(-1)}`;
    await kill(node);
    // A new leader is elected among the two left; a publish is acknowledged once it has a quorum again.
    const after = await until('a publish after the leader was killed', () =>
      nats.js.publish(subject, 'after', { msgID: `cluster-after-${Date.now()}`, timeout: 2000 }),
    );
    expect(after.seq).toBeGreaterThan(before.seq);
    const newLeader = (await nats.jsm.streams.info(stream.name)).cluster?.leader;
    expect(newLeader).not.toBe(leader);
    const got = await nats.jsm.streams.getMessage(stream.name, { seq: before.seq });
    expect(new TextDecoder().decode(got?.data)).toBe('before');
    await restart(['nats']);
    await until('the killed node back as a current replica', async () => {
      const info = await nats.jsm.streams.info(stream.name);
      const replica = info.cluster?.replicas?.find((r) => r.name === leader);
      return replica?.current ? true : undefined;
    });
  });
});

describe('MinIO as four erasure-coded nodes behind nginx', () => {
  it('keeps serving and storing objects with one node killed', async () => {
    expect(infra.env.S3_ENDPOINT).toBe(`http://127.0.0.1:${ports.s3}`);
    const s3 = createS3({
      endpoint: infra.env.S3_ENDPOINT,
      accessKey: infra.env.S3_ACCESS_KEY ?? '',
      secretKey: infra.env.S3_SECRET_KEY ?? '',
      bucket: 'cluster-test',
    });
    await s3.ensureBucket();
    const key = `before-${Date.now()}`;
    const bytes = Buffer.from(`page image ${key}`.repeat(1000));
    await s3.client.putObject('cluster-test', key, bytes);
    await kill('minio-2');
    const read = async (k: string) => {
      const stream = await s3.client.getObject('cluster-test', k);
      const chunks: Buffer[] = [];
      for await (const c of stream) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    };
    // nginx passes each request to a live node; the set still has its read and write quorum (3 of 4).
    expect((await until('a read with a node down', () => read(key))).equals(bytes)).toBe(true);
    const later = `after-${Date.now()}`;
    await until('a write with a node down', async () => {
      await s3.client.putObject('cluster-test', later, bytes);
      return true;
    });
    // read back as the first read was: a moment after the kill a request can still meet the node that is gone (503)
    expect((await until('the new object read with a node down', () => read(later))).equals(bytes)).toBe(true);
    await restart(['s3']);
    expect((await until('every object after the node came back', () => read(later))).equals(bytes)).toBe(true);
  });
});
