// A vitest reporter for npm test's whole runs: writes each test that passed only when tried again (vitest --retry)
// to the file named by PAGECAST_FLAKY_FILE, one JSON line each, so that scripts/test.mjs names them at the end. A test
// that needs a second try is a bug still to find: the run passes, but it says which, every time.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';

export default class FlakyReporter {
  onTestCaseResult(testCase) {
    const file = process.env.PAGECAST_FLAKY_FILE;
    const d = testCase.diagnostic();
    if (!file || !d || d.retryCount === 0) return;
    const state = testCase.result().state;
    const errors = (testCase.result().errors ?? []).map((e) => String(e.message ?? e).split('\n')[0]);
    appendFileSync(
      file,
      `${JSON.stringify({
        file: relative(process.cwd(), testCase.module.moduleId),
        name: testCase.fullName,
        tries: d.retryCount + 1,
        passed: state === 'passed',
        firstError: errors[0] ?? '',
      })}\n`,
    );
  }
}
