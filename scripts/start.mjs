// npm start: sets up what is missing and runs the whole product on one machine (http://localhost:8080).
import { startStack } from './lib/stack.mjs';

const port = Number(process.env.PORT || 8080);
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
  stack = await startStack({ profile: 'dev', port });
} catch (e) {
  console.error(`\n[start] could not start Pagecast: ${e.message}`);
  console.error('[start] fix the problem above and run `npm start` again; logs are in .data/dev/logs/.');
  process.exit(1);
}
const secs = ((Date.now() - t0) / 1000).toFixed(1);
console.log(`
  Pagecast is running (ready in ${secs} s)
    app          ${stack.url}
    API docs     ${stack.url}/api/docs
    mail catcher ${stack.mailUrl}
  Press Ctrl-C to stop.
`);
