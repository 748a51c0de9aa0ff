// The gateway under measurement for live.bench.mjs and device-sockets.bench.mjs, in its own process (so the client
// sockets of the bench do not count in its memory). Started with `node --expose-gc --import tsx`; talks to the bench
// over IPC:
//   → { type: 'listening', port }      once it serves
//   ← { type: 'mem' }  → { type: 'mem', heapUsed, heapTotal, external, arrayBuffers, rss, streams, sockets }
//                                       after two full collections
//   ← { type: 'cpu' }  → { type: 'cpu', micros }   the process's CPU time so far (user + system)
//   ← { type: 'snapshot', file }  → { type: 'snapshot', file }   a heap snapshot written there (investigations)
//   ← { type: 'stop' }                  closes and exits
import { writeHeapSnapshot } from 'node:v8';
import { loadGatewayConfig } from '../src/config';
import { createGateway } from '../src/server';

const send = (m: unknown) => process.send?.(m);
const collect = (globalThis as { gc?: () => void }).gc;

const gateway = createGateway(loadGatewayConfig(), {
  live: { maxStreams: Number(process.env.SSE_MAX_STREAMS ?? 10_000) },
});
const { port } = await gateway.start(0);
send({ type: 'listening', port });

process.on('message', async (m: { type?: string; file?: string }) => {
  if (m.type === 'mem') {
    collect?.();
    collect?.();
    const mu = process.memoryUsage();
    send({
      type: 'mem',
      heapUsed: mu.heapUsed,
      heapTotal: mu.heapTotal,
      external: mu.external,
      arrayBuffers: mu.arrayBuffers,
      rss: mu.rss,
      streams: gateway.events.size,
      sockets: gateway.sockets.size,
    });
  } else if (m.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    send({ type: 'cpu', micros: user + system });
  } else if (m.type === 'snapshot') {
    collect?.();
    send({ type: 'snapshot', file: writeHeapSnapshot(m.file) });
  } else if (m.type === 'stop') {
    await gateway.close();
    process.exit(0);
  }
});
