// The gateway in a process of its own (live-child.ts) for the benches, so their clients' work is not counted in its
// figures: its port, its IPC answers (cpu, mem, snapshot) and stop, which kills it when it does not exit within 5 s.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Starts the gateway with `env` over this process's and `execArgv` for node; resolves once it listens. */
export async function startGatewayChild(env, execArgv) {
  const child = fork(join(here, 'live-child.ts'), [], {
    cwd: join(here, '..'),
    env: { ...process.env, ...env },
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [first] = await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`gateway exited with ${code} before listening`);
    }),
  ]);
  const ask = async (m) => {
    child.send(m);
    const [reply] = await once(child, 'message');
    return reply;
  };
  return {
    port: first.port,
    mem: () => ask({ type: 'mem' }),
    cpu: () => ask({ type: 'cpu' }),
    snapshot: (file) => ask({ type: 'snapshot', file }),
    async stop() {
      child.send({ type: 'stop' });
      await Promise.race([once(child, 'exit'), new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill();
    },
  };
}
