// npm run alerts -- replay: the files reach a JetStream stream (one of the test's own, not the screens' ALERTS) with
// the poller's message ids, each line says what the file parsed to, and a file the parser refuses is reported, not
// published.
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:14222';
const run = promisify(execFile);

describe('npm run alerts -- replay', () => {
  it('publishes each file with Nats-Msg-Id <source>:<sha256>, prints kind, status, infoType and areas', async () => {
    const stream = `ALERTS_R${randomUUID().slice(0, 8)}`;
    const subject = `${stream.toLowerCase()}.report.v1`;
    const vxse53 = join(root, 'packages/alerts/samples/jma/32-35_04_06_240613_VXSE53.xml');
    const cancel = join(root, 'packages/alerts/samples/jma/38-39_03_01_210805_VTSE41.xml');
    const cap = join(root, 'packages/alerts/samples/cap/earthquake-tokyo.xml');
    const broken = join(mkdtempSync(join(tmpdir(), 'alerts-')), 'broken.xml');
    writeFileSync(broken, '<Report><Control>');
    const args = ['scripts/alerts.mjs', 'replay', '--profile', 'test', '--stream', stream, '--subject', subject];
    const files = [vxse53, cancel, cap, broken, vxse53];
    const result = await run(process.execPath, [...args, ...files], {
      cwd: root,
      env: { ...process.env, NATS_URL },
    }).then(
      (r) => ({ code: 0, stdout: r.stdout }),
      (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
    );
    const lines = result.stdout.trim().split('\n');
    expect(result.code).toBe(1);
    expect(lines[0]).toContain(
      'VXSE53 earthquake actual issued 20100125161517 — 震源 大隅半島東方沖 M5.3, 日南市(4520400) 4',
    );
    expect(lines[0]).toContain('[published #1]');
    expect(lines[1]).toContain('VTSE41 tsunami actual cancelled 20210805103531 — no areas [published #2]');
    expect(lines[2]).toContain('cap earthquake actual issued pagecast-demo-eq-20250101-0001');
    expect(lines[3]).toBe(`${broken}: refused ALERT_XML_INVALID`);
    expect(lines[4]).toContain('[already on the stream]');

    const nc = await connect({ servers: NATS_URL });
    const jsm = await jetstreamManager(nc);
    try {
      const ids = [];
      for (const seq of [1, 2, 3])
        ids.push((await jsm.streams.getMessage(stream, { seq }))?.header?.get('Nats-Msg-Id'));
      const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');
      expect(ids).toEqual([`jma:${sha(vxse53)}`, `jma:${sha(cancel)}`, `cap:${sha(cap)}`]);
      expect((await jsm.streams.info(stream)).state.messages).toBe(3);
    } finally {
      await jsm.streams.delete(stream).catch(() => undefined);
      await nc.close();
    }
  });
});
