#!/usr/bin/env node
// npm run infra -- <up|down|env|install> [--profile dev|test] [--with-stripe] [--cluster]
// --cluster (or PAGECAST_CLUSTER=1): NATS as a three-node JetStream cluster and MinIO as four nodes (lib/infra.mjs).
import { down, infraEnv, up } from './lib/infra.mjs';
import { debian, ensureDebianPackages, ensureGoTool, ensurePythonTool, goTools, pythonTools } from './lib/tools.mjs';

const [cmd = 'up', ...rest] = process.argv.slice(2);
const flag = (name) => rest.includes(name);
const opt = (name, dflt) => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : dflt;
};
const profile = opt('--profile', 'dev');
if (flag('--cluster')) process.env.PAGECAST_CLUSTER = '1';
const printEnv = (env) => {
  for (const [k, v] of Object.entries(env)) process.stdout.write(`${k}=${v}\n`);
};

switch (cmd) {
  case 'up': {
    const only = ['nats', 'mongo', 's3', 'mail', ...(flag('--with-stripe') ? ['stripe'] : [])];
    const r = await up({ profile, only, detached: true });
    printEnv(r.env);
    process.exit(0);
    break;
  }
  case 'down':
    await down(profile);
    break;
  case 'env':
    printEnv(infraEnv(profile));
    break;
  case 'install':
    for (const name of Object.keys(goTools)) await ensureGoTool(name);
    await ensureDebianPackages(Object.values(debian).flat());
    for (const name of Object.keys(pythonTools)) await ensurePythonTool(name);
    break;
  default:
    console.error(`unknown command ${cmd}; use up, down, env or install`);
    process.exit(2);
}
