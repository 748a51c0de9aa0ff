// Live updates (GET /api/events): memory per open SSE stream and publish → received latency.
// Starts the gateway as its own process (bench/live-child.ts, tsx) against the test NATS, with a local JWKS server
// standing in for account, signs test sessions with that key, opens N streams on loopback (10 per session, each
// watching one shared playlist and its own file), reads the gateway's heap and RSS (after GC) before and after,
// then publishes `events` playlist-saved events for the shared playlist on JetStream and times, per event, the first
// and the last of the N streams to receive it. Figures only: it fails only when it cannot measure.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { startGatewayChild } from './gateway-child.mjs';
import { jwksStandIn } from './jwks-stand-in.mjs';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { testEnv } from '@pagecast/service-kit/testing';
import { SignJWT } from 'jose';
import { percentile } from '../../scripts/lib/stats.mjs';

async function jwksServer() {
  const { url, kid, privateKey, close } = await jwksStandIn();
  const sign = (sub, sid) =>
    new SignJWT({ sid })
      .setProtectedHeader({ alg: 'EdDSA', kid })
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime('2h')
      .sign(privateKey);
  return { url, sign, close };
}

/** Starts the gateway process; resolves with its port and a `call(type)` for IPC requests. */
const startGateway = (env) => startGatewayChild(env, ['--expose-gc', '--import', 'tsx']);

/** Opens one SSE stream; resolves once `ready` arrived. onChunk sees every later chunk. */
function openStream(port, path, cookie, onChunk) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, agent: false, headers: { cookie } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`GET ${path} answered ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      let ready = false;
      res.on('data', (chunk) => {
        if (!ready && chunk.includes('event: ready')) {
          ready = true;
          resolve(req);
        } else if (ready) onChunk(chunk);
      });
      res.on('error', () => undefined);
    });
    req.on('error', reject);
    req.end();
  });
}

export async function benchLive({ log = console.log, connections = 2000, events = 20, perSession = 10 } = {}) {
  const env = testEnv();
  const jwks = await jwksServer();
  const gateway = await startGateway({
    NATS_URL: env.NATS_URL,
    INTERNAL_SECRET: env.INTERNAL_SECRET,
    ACCOUNT_URL: jwks.url,
    JWKS_URL: `${jwks.url}/.well-known/jwks.json`,
    PORT: '0',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_API_MAX: String(connections * 10),
    SSE_MAX_STREAMS: String(connections + 100),
    SSE_HEARTBEAT_MS: '25000',
  });
  const nc = await connect({ servers: env.NATS_URL });
  const js = jetstream(nc);
  const playlistId = randomUUID();
  const open = [];
  /** event id → { t0, first, last, count } */
  const arrivals = new Map();
  const onChunk = (chunk) => {
    const now = performance.now();
    for (const m of chunk.matchAll(/^id: (.+)$/gm)) {
      const a = arrivals.get(m[1]);
      if (!a) continue;
      a.count += 1;
      a.first ??= now;
      a.last = now;
    }
  };
  try {
    const cookies = [];
    for (let s = 0; s < Math.ceil(connections / perSession); s++) {
      cookies.push(`pc_session=${await jwks.sign(`bench-user-${s}`, `bench-session-${randomUUID()}`)}`);
    }
    const openMany = async (count, offset) => {
      const batch = 100;
      for (let i = 0; i < count; i += batch) {
        const reqs = [];
        for (let j = i; j < Math.min(count, i + batch); j++) {
          const n = offset + j;
          const path = `/api/events?playlist=${playlistId}&file=bench-file-${n}`;
          reqs.push(openStream(gateway.port, path, cookies[Math.floor(j / perSession)], onChunk));
        }
        open.push(...(await Promise.all(reqs)));
      }
    };

    // Warm-up (JIT, pools), closed again before the baseline.
    await openMany(100, connections);
    for (const req of open.splice(0)) req.destroy();
    await new Promise((r) => setTimeout(r, 500));
    const before = await gateway.mem();

    const t0 = performance.now();
    await openMany(connections, 0);
    const openSeconds = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 500));
    const after = await gateway.mem();
    if (after.streams !== connections)
      throw new Error(`gateway holds ${after.streams} streams, expected ${connections}`);
    const heapPerConn = (after.heapUsed - before.heapUsed) / connections;
    const rssPerConn = (after.rss - before.rss) / connections;
    log(
      `live: ${connections} streams open in ${openSeconds.toFixed(2)} s; gateway heap ${(before.heapUsed / 2 ** 20).toFixed(1)} → ${(after.heapUsed / 2 ** 20).toFixed(1)} MiB, rss ${(before.rss / 2 ** 20).toFixed(1)} → ${(after.rss / 2 ** 20).toFixed(1)} MiB`,
    );
    log(
      `live: per stream ≈ ${(heapPerConn / 1024).toFixed(1)} KiB heap, ${(rssPerConn / 1024).toFixed(1)} KiB rss (sockets and buffers included)`,
    );

    const firsts = [];
    const alls = [];
    let incomplete = 0;
    for (let i = 0; i < events; i++) {
      const id = randomUUID();
      const event = {
        id,
        type: 'files.playlist.saved.v1',
        occurredAt: new Date().toISOString(),
        data: { playlistId, ownerId: 'bench-user-0', name: 'bench', fileIds: [], updatedAt: new Date().toISOString() },
      };
      const a = { t0: performance.now(), first: undefined, last: undefined, count: 0 };
      arrivals.set(id, a);
      await js.publish(event.type, JSON.stringify(event), { msgID: id });
      const until = Date.now() + 5000;
      while (a.count < connections && Date.now() < until) await new Promise((r) => setTimeout(r, 2));
      if (a.count < connections) incomplete++;
      if (a.first !== undefined) firsts.push(a.first - a.t0);
      if (a.count === connections) alls.push(a.last - a.t0);
      await new Promise((r) => setTimeout(r, 50));
    }
    firsts.sort((x, y) => x - y);
    alls.sort((x, y) => x - y);
    const row = {
      connections,
      heapPerConnKiB: heapPerConn / 1024,
      rssPerConnKiB: rssPerConn / 1024,
      events,
      firstP50Ms: percentile(firsts, 50),
      firstP95Ms: percentile(firsts, 95),
      allP50Ms: percentile(alls, 50),
      allP95Ms: percentile(alls, 95),
      incomplete,
    };
    log(
      `live: publish → first stream p50 ${row.firstP50Ms.toFixed(2)} ms, p95 ${row.firstP95Ms.toFixed(2)} ms; → all ${connections} streams p50 ${row.allP50Ms.toFixed(2)} ms, p95 ${row.allP95Ms.toFixed(2)} ms (${events} events, ${incomplete} not delivered to every stream within 5 s)`,
    );
    return [row];
  } finally {
    for (const req of open) req.destroy();
    await nc.close();
    await gateway.stop();
    await jwks.close();
  }
}
