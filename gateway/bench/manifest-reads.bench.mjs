// A display's manifest read after its socket was told of another version (its hello at boot, or a push after a
// change): the gateway's CPU per read when it proxies the read to screens (before) and when it answers it from the
// text screens gave with the version (now), and how many reads reached screens. The gateway runs in its own process
// (bench/live-child.ts); screens is a stand-in: the kit's serveDeviceRpc on the test NATS for the socket's calls (the
// code screens answers with), and an HTTP server for the reads it is sent, answering the same bytes and ETag. Each
// pass opens N displays (hello with an older version), then every display reads its manifest with If-None-Match,
// 50 at a time; the two ways alternate, pass after pass. Figures only: it fails only when it cannot measure.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { connect } from '@nats-io/transport-node';
import { DEVICE_SOCKET_PATH } from '@pagecast/contracts';
import { createLogger, serveDeviceRpc } from '@pagecast/service-kit';
import { testEnv } from '@pagecast/service-kit/testing';
import WebSocket from 'ws';
import { ownNodeArgs } from '../../scripts/lib/node-args.mjs';
import { startGatewayChild } from './gateway-child.mjs';
import { jwksStandIn } from './jwks-stand-in.mjs';

/** A manifest of the size a display's is (one assignment, a group, no takeover), the same for every screen. */
const manifestOf = (screenId) =>
  JSON.stringify({
    screenId,
    name: `Screen ${screenId.slice(0, 8)}`,
    timeZone: 'Asia/Tokyo',
    assignment: { kind: 'playlist', playlistId: randomUUID(), since: new Date().toISOString() },
    heartbeatSeconds: 15,
    groups: [{ id: randomUUID(), assignment: null, openingHours: null }],
    takeovers: [],
    rotation: { degrees: 0 },
  });

const startGateway = (env) => startGatewayChild(env, ['--import', 'tsx', ...ownNodeArgs.gateway]);

/** A display's socket: open, hello with a version it no longer should hold; resolves with the version pushed. */
function openDisplay(port, cookie) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${DEVICE_SOCKET_PATH}`, {
      headers: { cookie, origin: `http://127.0.0.1:${port}` },
      perMessageDeflate: false,
    });
    ws.on('open', () => ws.send('{"type":"hello","version":"W/\\"old\\""}'));
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data));
      if (frame.type === 'manifest') resolve({ ws, cookie, version: frame.version });
    });
    ws.on('error', reject);
    ws.on('close', (code) => reject(new Error(`closed with ${code}`)));
  });
}

export async function benchManifestReads({
  log = console.log,
  displays = Number(process.env.BENCH_MANIFEST_DISPLAYS ?? 1000),
  passes = Number(process.env.BENCH_MANIFEST_PASSES ?? 3),
} = {}) {
  const env = testEnv();
  const manifests = new Map();
  let httpReads = 0;
  // screens' HTTP route as it answers: the manifest's bytes with its ETag, never stored
  const jwks = await jwksStandIn((req, res) => {
    if (!req.url?.startsWith('/api/screens/device/me')) {
      res.statusCode = 404;
      return res.end();
    }
    httpReads++;
    const screenId = req.headers['x-bench-screen'];
    const m = manifests.get(screenId) ?? manifests.values().next().value;
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      etag: m.version,
      'cache-control': 'no-store',
    });
    res.end(m.json);
  });
  const sign = jwks.signDevice;
  const prefix = `bench-${randomUUID().slice(0, 8)}.device`;
  const nc = await connect({ servers: env.NATS_URL });
  let giveText = false;
  const responder = serveDeviceRpc(nc, {
    secret: env.INTERNAL_SECRET,
    prefix,
    logger: createLogger('screens-stand-in', 'silent'),
    handlers: {
      manifest: (device) => {
        const m = manifests.get(device.screenId);
        return { body: giveText ? { version: m.version, manifest: m.json } : { version: m.version } };
      },
    },
  });
  const gateway = await startGateway({
    NATS_URL: env.NATS_URL,
    INTERNAL_SECRET: env.INTERNAL_SECRET,
    ACCOUNT_URL: jwks.url,
    SCREENS_URL: jwks.url,
    DEVICE_RPC_SUBJECT_PREFIX: prefix,
    PORT: '0',
    INTERNAL_PORT: '0',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_API_MAX: String(displays * 100),
  });
  const rows = [];
  try {
    const devices = [];
    for (let i = 0; i < displays; i++) {
      const device = { deviceId: randomUUID(), screenId: randomUUID(), ownerId: `owner-${i % 50}` };
      const json = manifestOf(device.screenId);
      manifests.set(device.screenId, { json, version: `W/"${json.length.toString(16)}-${randomUUID()}"` });
      devices.push({ ...device, cookie: `pc_device=${await sign(device)}` });
    }
    const pass = async (text, measured) => {
      giveText = text;
      const open = [];
      for (let i = 0; i < devices.length; i += 100)
        open.push(...(await Promise.all(devices.slice(i, i + 100).map((d) => openDisplay(gateway.port, d.cookie)))));
      const reads0 = httpReads;
      const cpu0 = await gateway.cpu();
      const t0 = performance.now();
      let next = 0;
      let bytes = 0;
      const worker = async () => {
        while (next < open.length) {
          const i = next++;
          const d = open[i];
          const res = await fetch(`http://127.0.0.1:${gateway.port}/api/screens/device/me`, {
            headers: {
              cookie: d.cookie,
              'if-none-match': 'W/"old"',
              'cache-control': 'max-age=0',
              'x-bench-screen': devices[i].screenId,
            },
          });
          const body = await res.text();
          if (
            res.status !== 200 ||
            res.headers.get('etag') !== d.version ||
            body !== manifests.get(devices[i].screenId).json
          )
            throw new Error(`read answered ${res.status} ${res.headers.get('etag')}, expected 200 ${d.version}`);
          bytes += body.length;
        }
      };
      await Promise.all(Array.from({ length: 50 }, worker));
      const ms = performance.now() - t0;
      const cpu1 = await gateway.cpu();
      for (const d of open) d.ws.close();
      await new Promise((r) => setTimeout(r, 500));
      if (!measured) return;
      const row = {
        way: text ? 'answered by the gateway' : 'proxied to screens',
        reads: open.length,
        readsAtScreens: httpReads - reads0,
        gatewayMicrosPerRead: Math.round((cpu1.micros - cpu0.micros) / open.length),
        readsPerSecond: Math.round(open.length / (ms / 1000)),
        bytesPerRead: Math.round(bytes / open.length),
      };
      rows.push(row);
      log(
        `manifest reads: ${row.way}: ${row.gatewayMicrosPerRead} µs of the gateway's CPU per read, ${row.readsAtScreens} of ${row.reads} reached screens, ${row.readsPerSecond} reads/s`,
      );
    };
    // warm-up, both ways; then alternated
    await pass(false, false);
    await pass(true, false);
    for (let i = 0; i < passes; i++) {
      await pass(false, true);
      await pass(true, true);
    }
    return rows;
  } finally {
    await gateway.stop();
    await responder.stop();
    await nc.close();
    await jwks.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await benchManifestReads();
  console.table(rows);
  process.exit(0);
}
