// schemathesis against every service's OpenAPI document, through the gateway, as a signed-in member: no answer may
// be a server error (5xx) or break the schema its document publishes for it. Bounded examples per operation
// (FUZZ_MAX_EXAMPLES, default 15) keep the run to a few minutes; each run prints its counts, seed and time.
// FUZZ_SEED fixes the generated cases (default 1, so that CI judges a commit, not a dice roll); FUZZ_SEED=random
// explores new ones, and a failure's seed, printed with it, replays it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceName } from '@pagecast/contracts';
import { afterAll, describe, expect, inject, it } from 'vitest';

const target = inject('fuzz');
const maxExamples = Number(process.env.FUZZ_MAX_EXAMPLES ?? 15);
const seed =
  process.env.FUZZ_SEED === 'random'
    ? String(Math.floor(Math.random() * Number.MAX_SAFE_INTEGER))
    : (process.env.FUZZ_SEED ?? '1');
const reports = mkdtempSync(join(tmpdir(), 'pagecast-schemathesis-'));
afterAll(() => rmSync(reports, { recursive: true, force: true }));

interface Report {
  exit_code: number;
  running_time: number;
  operations: { total: number; selected: number; tested: number; errored: number };
  test_cases: { generated: number; with_failures: number; unique_failures: number; errored: number };
  failures: unknown[];
  errors: unknown[];
}

function schemathesis(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    // cwd: schemathesis keeps a .schemathesis/ folder (replay data) where it runs; not in the checkout
    const child = spawn(target.schemathesis, args, {
      cwd: reports,
      stdio: ['ignore', 'pipe', 'pipe'],
      // the resumable upload's raw body type (application/offset+octet-stream) serialized as octet-stream
      env: { ...process.env, SCHEMATHESIS_HOOKS: fileURLToPath(new URL('../schemathesis-hooks.py', import.meta.url)) },
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

describe('schemathesis through the gateway, as a member', () => {
  it.each(ServiceName.options)('%s: no server error and no answer outside its schema', async (service) => {
    const report = join(reports, `${service}.json`);
    const t0 = Date.now();
    const { code, output } = await schemathesis([
      'run',
      `${target.baseUrl}/api/docs/${service}/openapi.json`,
      '--url',
      target.baseUrl,
      '--header',
      `Cookie: ${target.cookie}`,
      '--checks',
      'not_a_server_error,response_schema_conformance',
      '--max-examples',
      String(maxExamples),
      '--seed',
      seed,
      // logging out would end the member's session for every later request
      '--exclude-path',
      '/api/logout',
      '--request-timeout',
      '30',
      '--generation-database',
      'none',
      '--no-color',
      '--output-truncate',
      'true',
      '--report',
      'json',
      '--report-json-path',
      report,
    ]);
    const r = JSON.parse(readFileSync(report, 'utf8')) as Report;
    const seconds = ((Date.now() - t0) / 1000).toFixed(1);
    console.log(
      `[schemathesis] ${service}: ${r.operations.tested}/${r.operations.total} operations, ` +
        `${r.test_cases.generated} examples, ${r.test_cases.unique_failures} failures, ` +
        `${r.errors.length} errors, seed ${seed}, ${seconds} s`,
    );
    const failed = r.failures.length > 0 || r.errors.length > 0 || code !== 0;
    expect(failed ? output.slice(output.indexOf('FAILURES') >= 0 ? output.indexOf('FAILURES') : 0) : '').toBe('');
    expect(r.test_cases.unique_failures).toBe(0);
    expect(r.errors).toEqual([]);
    expect(r.operations.tested).toBe(r.operations.selected);
    expect(r.operations.tested).toBeGreaterThan(0);
    expect(r.test_cases.generated).toBeGreaterThan(r.operations.tested);
  });
});
