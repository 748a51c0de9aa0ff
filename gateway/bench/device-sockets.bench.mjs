// Memory per connected display at the gateway: N displays' WebSockets (bench/live-child.ts runs the gateway in its
// own process, so the clients here do not count), each as a display uses it: the upgrade with a real device token
// (EdDSA, checked against a local JWKS standing in for screens), hello, watch, a heartbeat and a play batch relayed
// over the test NATS to a stand-in answering with the kit's serveDeviceRpc (the code screens answers with). The
// gateway's memory is read after two full collections (`--expose-gc`) with no display, with N connected and idle,
// and again after every display has made one more call at once (the buffers a call leaves behind), so the figure is
// what each held display keeps, not the garbage of the moment (docs/scale.md "Memory per display").
// Figures only (goal: at most 32 KiB of resident memory per display); it fails only when it cannot measure.
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGatewayChild } from './gateway-child.mjs';
import { jwksStandIn } from './jwks-stand-in.mjs';
import { connect } from '@nats-io/transport-node';
import { DEVICE_SOCKET_PATH } from '@pagecast/contracts';
import { createLogger, serveDeviceRpc } from '@pagecast/service-kit';
import { testEnv } from '@pagecast/service-kit/testing';
import WebSocket from 'ws';
import { ownNodeArgs } from '../../scripts/lib/node-args.mjs';

const _here = dirname(fileURLToPath(import.meta.url));
const KiB = 1024;

async function jwksServer() {
  const { url, signDevice: sign, close } = await jwksStandIn();
  return { url, sign, close };
}

const nodeArgs =
  process.env.BENCH_GATEWAY_NODE_ARGS !== undefined
    ? process.env.BENCH_GATEWAY_NODE_ARGS.split(' ').filter(Boolean)
    : ownNodeArgs.gateway;

// the gateway's own flags (scripts/lib/node-args.mjs), unless BENCH_GATEWAY_NODE_ARGS names others ('' for none)
const startGateway = (env) => startGatewayChild(env, ['--expose-gc', '--import', 'tsx', ...nodeArgs]);

/** One display: opens its socket, says hello, watches, sends a heartbeat and a play batch; resolves when answered. */
function display(port, cookie, n, playlistId) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${DEVICE_SOCKET_PATH}`, {
      headers: { cookie, origin: `http://127.0.0.1:${port}` },
      perMessageDeflate: false,
    });
    let ref = 0;
    const waiting = new Map();
    const call = (type, body) =>
      new Promise((ok) => {
        ref++;
        waiting.set(ref, ok);
        ws.send(JSON.stringify({ type, ref, body }));
      });
    ws.on('message', async (data) => {
      const frame = JSON.parse(String(data));
      if (frame.type === 'manifest' && ref === 0) {
        ws.send(JSON.stringify({ type: 'watch', playlists: [playlistId], files: [`bench-file-${n}`] }));
        const hb = await call('heartbeat', { status: 'playing' });
        const plays = await call('plays', { plays: [{ id: randomUUID() }, { id: randomUUID() }] });
        if (hb.status !== 200 || plays.status !== 200)
          reject(new Error(`calls answered ${hb.status}, ${plays.status}`));
        else resolve({ ws, call });
      } else if (frame.type === 'reply') {
        waiting.get(frame.ref)?.(frame);
        waiting.delete(frame.ref);
      }
    });
    ws.on('open', () => ws.send('{"type":"hello","version":null}'));
    ws.on('error', reject);
    ws.on('close', (code) => reject(new Error(`closed with ${code}`)));
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function benchDeviceSockets({
  log = console.log,
  counts = (process.env.BENCH_SOCKETS ?? '1000,5000').split(',').map(Number),
  snapshotDir = process.env.BENCH_SOCKETS_SNAPSHOTS,
} = {}) {
  const env = testEnv();
  const jwks = await jwksServer();
  const prefix = `bench-${randomUUID().slice(0, 8)}.device`;
  const nc = await connect({ servers: env.NATS_URL });
  const responder = serveDeviceRpc(nc, {
    secret: env.INTERNAL_SECRET,
    prefix,
    logger: createLogger('screens-stand-in', 'silent'),
    handlers: {
      manifest: () => ({ body: { version: 'W/"v1"' } }),
      heartbeat: () => ({ body: { ok: true } }),
      plays: (_d, body) => ({ body: { accepted: body?.plays?.length ?? 0, duplicates: 0 } }),
    },
  });
  const rows = [];
  try {
    for (const n of counts) {
      const gateway = await startGateway({
        NATS_URL: env.NATS_URL,
        INTERNAL_SECRET: env.INTERNAL_SECRET,
        ACCOUNT_URL: jwks.url,
        SCREENS_URL: jwks.url,
        DEVICE_RPC_SUBJECT_PREFIX: prefix,
        PORT: '0',
        INTERNAL_PORT: '0',
        LOG_LEVEL: 'silent',
        RATE_LIMIT_API_MAX: String(n * 10),
      });
      const open = [];
      try {
        const playlistId = randomUUID();
        const cookies = [];
        for (let i = 0; i < n + 100; i++) {
          const token = await jwks.sign({ deviceId: randomUUID(), screenId: randomUUID(), ownerId: `owner-${i % 50}` });
          cookies.push(`pc_device=${token}`);
        }
        const openMany = async (from, to) => {
          for (let i = from; i < to; i += 100) {
            const batch = [];
            for (let j = i; j < Math.min(to, i + 100); j++)
              batch.push(display(gateway.port, cookies[j], j, playlistId));
            open.push(...(await Promise.all(batch)));
          }
        };
        // warm-up (JIT, pools, the NATS connection), closed again before the baseline
        await openMany(n, n + 100);
        for (const d of open.splice(0)) d.ws.terminate();
        await sleep(1000);
        const before = await gateway.mem();
        const t0 = performance.now();
        await openMany(0, n);
        const openS = (performance.now() - t0) / 1000;
        await sleep(1000);
        const held = await gateway.mem();
        if (held.sockets !== n) throw new Error(`gateway holds ${held.sockets} sockets, expected ${n}`);
        if (snapshotDir) await gateway.snapshot(join(snapshotDir, `sockets-${n}.heapsnapshot`));
        // every display calls once more at once: what the sockets' buffers keep after use
        await Promise.all(open.map((d) => d.call('heartbeat', { status: 'playing' })));
        await sleep(1000);
        const used = await gateway.mem();
        // then the gateway's CPU per relayed call: every display a heartbeat a second (spread over the second)
        const cpuSeconds = Number(process.env.BENCH_SOCKETS_CPU_S ?? 15);
        let calls = 0;
        const cpu0 = await gateway.cpu();
        await Promise.all(
          open.map(async (d, i) => {
            await sleep((1000 * i) / n);
            for (let t = 0; t < cpuSeconds; t++) {
              const next = sleep(1000);
              await d.call('heartbeat', { status: 'playing' });
              calls++;
              await next;
            }
          }),
        );
        const cpu1 = await gateway.cpu();
        const afterCalls = await gateway.mem();
        const per = (a, b, k) => (a[k] - b[k]) / n / KiB;
        const row = {
          displays: n,
          nodeArgs: nodeArgs.join(' '),
          openS: Number(openS.toFixed(1)),
          cpuMicrosPerCall: Math.round((cpu1.micros - cpu0.micros) / calls),
          rssAfterRateKiB: Number(per(afterCalls, before, 'rss').toFixed(1)),
        };
        for (const k of ['rss', 'heapUsed', 'external', 'arrayBuffers']) {
          row[`${k}KiB`] = Number(per(held, before, k).toFixed(1));
          row[`${k}AfterCallKiB`] = Number(per(used, before, k).toFixed(1));
        }
        rows.push(row);
        const mib = (v) => (v / 2 ** 20).toFixed(1);
        log(
          `device sockets: ${n} displays open in ${row.openS} s; gateway rss ${mib(before.rss)} → ${mib(held.rss)} → ${mib(used.rss)} MiB, heap ${mib(before.heapUsed)} → ${mib(held.heapUsed)} → ${mib(used.heapUsed)} MiB, external ${mib(before.external)} → ${mib(held.external)} → ${mib(used.external)} MiB (none → held → after one call each)`,
        );
        log(
          `device sockets: ${calls} heartbeats over ${cpuSeconds} s (one a second per display): ${row.cpuMicrosPerCall} µs of the gateway's CPU per call; then ${row.rssAfterRateKiB} KiB resident per display (node ${row.nodeArgs || 'defaults'})`,
        );
        log(
          `device sockets: per display ${row.rssKiB} KiB resident (${row.rssAfterCallKiB} after a call each; goal ≤ 32), heap ${row.heapUsedKiB} (${row.heapUsedAfterCallKiB}), external ${row.externalKiB} (${row.externalAfterCallKiB}) KiB`,
        );
      } finally {
        for (const d of open) d.ws.terminate();
        await gateway.stop();
      }
    }
    return rows;
  } finally {
    await responder.stop();
    await nc.close();
    await jwks.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await benchDeviceSockets();
  console.log(JSON.stringify(rows, null, 2));
}
