// npm test: installs what the machine lacks, starts the test-profile servers that are not running, type-checks,
// lints, runs every vitest project (unit, component, browser), stops what it started, and ends with one plain line
// "N passed, N failed[, N skipped]" summing every suite, so a run that tested nothing shows.
//
// A whole run goes in lanes, at once (scripts/lib/shards.mjs): vitest processes over parts of the projects, the
// browser tests in two shards each with a stack of its own (scripts/lib/stack.mjs keeps their data apart). Vitest
// alone runs the files of every project that must go one file at a time (each service's component tests, the browser
// tests, the fuzzing) in one queue, although they share nothing; most of their time is spent waiting (for a page, a
// conversion, a display's next heartbeat, the database), so lanes fill the time one queue leaves idle. Shards are
// balanced by the durations in tests/e2e/durations.json (refreshed from each whole run's report into
// .data/test/e2e-durations.json). PAGECAST_TEST_LANES=1 runs everything in one process, as before; a run given
// arguments (`npm test -- --project gateway`) is one process too.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildFrontEnds } from './lib/build.mjs';
import { e2eDir, localDurations, testLanes } from './lib/shards.mjs';
import { corpusDir, dataDir, root, up } from './lib/infra.mjs';
import { debianFor, ensureDebianPackages, ensurePythonTool } from './lib/tools.mjs';

const say = (m) => process.stdout.write(`[test] ${m}\n`);
const extra = process.argv.slice(2); // e.g. a project filter: npm test -- --project gateway
let infra;
let stopping = false;
const totals = { passed: 0, failed: 0, skipped: 0 };
/** the whole-tree checks (type-check, lint), also in totals: the summary names them apart from the tests */
const checks = { passed: 0, failed: 0 };
/** each failed test, named again at the end: a log read from its tail (as CI shows it) must say what failed */
const failures = [];
/**
 * A whole run tries a failed test once more (`--retry=1`): on a 2-core machine running five lanes beside real servers,
 * a test that waits on time can fail once in several runs although nothing is wrong with what it tests. A test that
 * passes on its second try counts as passed, and is named at the end as flaky, every run, so it is seen and fixed; one
 * that fails twice fails. PAGECAST_TEST_RETRY=0 turns the second try off.
 */
const flaky = [];
const retryArgs = process.env.PAGECAST_TEST_RETRY === '0' ? [] : ['--retry=1'];
const flakyReporter = join(root, 'scripts/lib/flaky-reporter.mjs');
const flakyFile = join(dataDir('test'), 'flaky.jsonl');

async function finish(code) {
  if (stopping) return;
  stopping = true;
  await infra?.stop().catch((e) => say(`stopping servers failed: ${e.message}`));
  for (const f of flaky) say(`FLAKY (passed on its second try) ${f}`);
  for (const f of failures) say(`FAILED ${f}`);
  say(
    `checks (type-check, lint): ${checks.passed} passed, ${checks.failed} failed; tests: ` +
      `${totals.passed - checks.passed} passed, ${totals.failed - checks.failed} failed` +
      `${totals.skipped ? `, ${totals.skipped} skipped` : ''}` +
      `${flaky.length ? `; ${flaky.length} of them passed only on a second try (named above)` : ''}`,
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

/** Runs a command with each line of its output prefixed by the lane's name (and kept whole in its log file). */
function runLane(name, cmd, args, env, logFile) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const log = createWriteStream(logFile);
    for (const stream of [child.stdout, child.stderr]) {
      let buf = '';
      stream.on('data', (d) => {
        log.write(d);
        buf += d;
        const lines = buf.split('\n');
        buf = lines.pop() ?? '';
        for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
      });
    }
    child.on('close', (code) => log.end(() => resolve(code ?? 1)));
  });
}

/** Adds a vitest JSON report to the totals; a missing report or a suite that failed to load counts as a failure. */
function countReport(report, code, label) {
  if (!existsSync(report)) {
    say(`${label}: vitest wrote no report (exit ${code})`);
    failures.push(`${label}: vitest wrote no report (exit ${code})`);
    totals.failed += 1;
    return null;
  }
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const before = totals.failed;
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // A suite that failed to load has no failed test in it; count it so it cannot hide.
  const broken = (r.testResults ?? []).filter(
    (f) => f.status === 'failed' && f.assertionResults.every((a) => a.status !== 'failed'),
  );
  for (const f of broken) {
    say(`${label}: suite failed to run: ${f.name}: ${(f.message || '').split('\n')[0]}`);
    failures.push(`${label}: ${relative(root, f.name)}: suite failed to run: ${(f.message || '').split('\n')[0]}`);
  }
  for (const f of r.testResults ?? []) {
    for (const a of f.assertionResults ?? []) {
      if (a.status !== 'failed') continue;
      // the first lines of the message: enough to tell a time-out from a wrong value
      const why = (a.failureMessages ?? []).join('\n').split('\n').slice(0, 3).join(' | ').slice(0, 400);
      failures.push(`${label}: ${relative(root, f.name)} > ${a.fullName ?? a.title}: ${why}`);
    }
  }
  totals.failed += broken.length;
  if (code !== 0 && totals.failed === before) {
    totals.failed += 1;
    failures.push(`${label}: vitest exited ${code} with no failed test in its report`);
  }
  return r;
}

/** Keeps each browser test file's duration from a whole run's reports, for the next run's shards. */
function keepDurations(reports) {
  const out = {};
  for (const r of reports) {
    for (const f of r?.testResults ?? []) {
      const rel = relative(e2eDir, f.name);
      if (!rel.startsWith('..') && f.endTime && f.startTime) out[rel] = Math.round(f.endTime - f.startTime);
    }
  }
  if (Object.keys(out).length) writeFileSync(localDurations(), `${JSON.stringify(out, null, 2)}\n`);
}

/** A whole-tree check (type-check, lint) counts as one test: passed or failed. */
async function check(label, cmd, args, env) {
  const t0 = Date.now();
  say(`${label} ...`);
  const code = await run(cmd, args, env);
  say(`${label}: ${code === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (code !== 0) failures.push(`${label} (exit ${code})`);
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

  // PAGECAST_TEST_LANES=1: everything in one vitest process (as a run given arguments is)
  const lanes = extra.length || process.env.PAGECAST_TEST_LANES === '1' ? 1 : 'all';
  const checks = async () => {
    await check('type-check (tsc -b)', bin('tsc'), ['-b'], env);
    await check('lint and format (biome ci)', bin('biome'), ['ci', '--reporter=summary', '.'], env);
  };
  // In lanes the whole-tree checks run beside the tests (they need no server; the tests spend most of their time
  // waiting); alone, first, as before.
  const checked = lanes === 1 ? await checks() : checks();
  await buildFrontEnds();

  mkdirSync(dataDir('test'), { recursive: true });
  if (lanes === 1) {
    const report = join(dataDir('test'), 'vitest-report.json');
    rmSync(report, { force: true });
    say('vitest: unit, component and browser tests ...');
    const code = await run(
      bin('vitest'),
      ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra],
      env,
    );
    countReport(report, code, 'vitest');
  } else {
    const plan = testLanes(2);
    rmSync(flakyFile, { force: true });
    const logs = join(dataDir('test'), 'logs');
    mkdirSync(logs, { recursive: true });
    say(
      `vitest in ${plan.length} lanes at once: ${plan
        .map((l) =>
          l.files ? `${l.name} (${l.files.length} browser test files, ~${Math.round(l.ms / 1000)} s)` : l.name,
        )
        .join(', ')}; each lane's lines carry its name, whole logs in ${relative(root, logs)}/vitest-<lane>.log`,
    );
    const t0 = Date.now();
    const results = await Promise.all(
      plan.map(async (lane) => {
        const report = join(dataDir('test'), `vitest-report-${lane.name}.json`);
        rmSync(report, { force: true });
        const code = await runLane(
          lane.name,
          bin('vitest'),
          [
            'run',
            ...retryArgs,
            '--reporter=default',
            '--reporter=json',
            `--reporter=${flakyReporter}`,
            `--outputFile.json=${report}`,
            ...lane.args,
          ],
          { ...env, ...lane.env, PAGECAST_FLAKY_FILE: flakyFile },
          join(logs, `vitest-${lane.name}.log`),
        );
        say(`lane ${lane.name} done in ${Math.round((Date.now() - t0) / 1000)} s (exit ${code})`);
        return { report, code, name: lane.name };
      }),
    );
    const reports = results.map((r) => countReport(r.report, r.code, r.name));
    keepDurations(reports);
    for (const line of existsSync(flakyFile) ? readFileSync(flakyFile, 'utf8').split('\n').filter(Boolean) : []) {
      const f = JSON.parse(line);
      if (f.passed)
        flaky.push(`${f.file} > ${f.name} (try ${f.tries}; the first failed: ${f.firstError.slice(0, 200)})`);
    }
  }
  await checked;
  if (totals.passed === 0) say('no test ran: that is a failure');
  await finish(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
} catch (e) {
  say(`could not run the tests: ${e.message}`);
  failures.push(`could not run the tests: ${e.message}`);
  totals.failed += 1;
  await finish(1);
}
