// npm start: sets up what is missing and runs the whole product on one machine (http://localhost:8080).
import { startStack } from './lib/stack.mjs';

const port = Number(process.env.PORT || 8080);
// --cluster: NATS and MinIO as clusters (three and four nodes) instead of single servers (scripts/lib/infra.mjs).
if (process.argv.includes('--cluster')) process.env.PAGECAST_CLUSTER = '1';
const t0 = Date.now();
let stack;
let stopping = false;
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  process.stdout.write('\n[start] stopping everything that was started ...\n');
  await stack?.stop();
  process.exit(code);
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => shutdown(0));

try {
  // --replicas N (or PAGECAST_REPLICAS=N): N gateways behind nginx and N of each service (README, "Replicas").
  const at = process.argv.indexOf('--replicas');
  const replicas = at >= 0 ? Number(process.argv[at + 1]) : undefined;
  stack = await startStack({ profile: 'dev', port, replicas });
} catch (e) {
  console.error(`\n[start] could not start Pagecast: ${e.message}`);
  console.error('[start] fix the problem above and run `npm start` again; logs are in .data/dev/logs/.');
  process.exit(1);
}
const secs = ((Date.now() - t0) / 1000).toFixed(1);
console.log(`
  Pagecast is running (ready in ${secs} s)
    app          ${stack.url}${stack.replicas > 1 ? ` (nginx, round robin over ${stack.replicas} gateways and ${stack.replicas} of each service)` : ''}
    API docs     ${stack.url}/api/docs
    mail catcher ${stack.mailUrl}
  Press Ctrl-C to stop.
`);
