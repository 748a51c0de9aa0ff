// npm test: installs what the machine lacks, starts the test-profile servers that are not running, type-checks,
// lints, runs every vitest project (unit, component, browser), stops what it started, and ends with one plain line
// "N passed, N failed[, N skipped]" summing every suite, so a run that tested nothing shows.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildFrontEnds } from './lib/build.mjs';
import { corpusDir, dataDir, root, up } from './lib/infra.mjs';
import { debianFor, ensureDebianPackages, ensurePythonTool } from './lib/tools.mjs';

const say = (m) => process.stdout.write(`[test] ${m}\n`);
const extra = process.argv.slice(2); // e.g. a project filter: npm test -- --project gateway
let infra;
let stopping = false;
const totals = { passed: 0, failed: 0, skipped: 0 };
/** the whole-tree checks (type-check, lint), also in totals: the summary names them apart from the tests */
const checks = { passed: 0, failed: 0 };

async function finish(code) {
  if (stopping) return;
  stopping = true;
  await infra?.stop().catch((e) => say(`stopping servers failed: ${e.message}`));
  say(
    `checks (type-check, lint): ${checks.passed} passed, ${checks.failed} failed; tests: ` +
      `${totals.passed - checks.passed} passed, ${totals.failed - checks.failed} failed` +
      `${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
  );
  process.stdout.write(
    `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}\n`,
  );
  process.exit(code);
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => finish(130));

function run(cmd, args, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: 'inherit' });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** A whole-tree check (type-check, lint) counts as one test: passed or failed. */
async function check(label, cmd, args, env) {
  const t0 = Date.now();
  say(`${label} ...`);
  const code = await run(cmd, args, env);
  say(`${label}: ${code === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  totals[code === 0 ? 'passed' : 'failed'] += 1;
  checks[code === 0 ? 'passed' : 'failed'] += 1;
}

try {
  await ensureDebianPackages(debianFor('test'));
  // tests/fuzz runs schemathesis from its venv in the tool cache
  await ensurePythonTool('schemathesis');
  infra = await up({ profile: 'test', only: ['nats', 'mongo', 's3', 'mail', 'stripe'] });
  // node_modules/.bin first: tools with a `#!/usr/bin/env node` line must run on the project's Node 24, not the system's.
  const env = {
    ...process.env,
    ...infra.env,
    PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH}`,
    NODE_ENV: 'test',
    PAGECAST_TEST_INFRA: '1',
    PAGECAST_CORPUS: corpusDir(),
  };
  const bin = (n) => join(root, 'node_modules/.bin', n);

  await check('type-check (tsc -b)', bin('tsc'), ['-b'], env);
  await check('lint and format (biome ci)', bin('biome'), ['ci', '--reporter=summary', '.'], env);
  await buildFrontEnds();

  const report = join(dataDir('test'), 'vitest-report.json');
  mkdirSync(dataDir('test'), { recursive: true });
  rmSync(report, { force: true });
  say('vitest: unit, component and browser tests ...');
  const code = await run(
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra],
    env,
  );
  if (!existsSync(report)) {
    say(`vitest wrote no report (exit ${code})`);
    totals.failed += 1;
  } else {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    // A suite that failed to load has no failed test in it; count it so it cannot hide.
    const broken = (r.testResults ?? []).filter(
      (f) => f.status === 'failed' && f.assertionResults.every((a) => a.status !== 'failed'),
    );
    for (const f of broken) say(`suite failed to run: ${f.name}: ${(f.message || '').split('\n')[0]}`);
    totals.failed += broken.length;
    if (code !== 0 && totals.failed === 0) totals.failed += 1;
  }
  if (totals.passed === 0) say('no test ran: that is a failure');
  await finish(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
} catch (e) {
  say(`could not run the tests: ${e.message}`);
  totals.failed += 1;
  await finish(1);
}
