#!/usr/bin/env node
// npm run infra -- <up|down|env|install> [--profile dev|test] [--with-stripe]
import { down, infraEnv, up } from './lib/infra.mjs';
import { debian, ensureDebianPackages, ensureGoTool, ensurePythonTool, goTools, pythonTools } from './lib/tools.mjs';

const [cmd = 'up', ...rest] = process.argv.slice(2);
const flag = (name) => rest.includes(name);
const opt = (name, dflt) => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : dflt;
};
const profile = opt('--profile', 'dev');
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
    for (const name of Object.keys(pythonTools)) await ensurePythonTool(name);
    await ensureDebianPackages([...debian.conversion, ...debian.browser, ...debian.bench]);
    break;
  default:
    console.error(`unknown command ${cmd}; use up, down, env or install`);
    process.exit(2);
}
