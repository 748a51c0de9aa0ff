// What `tsc -b` writes for a front end (declarations and its build info, emitted for project references) is not
// part of the app: it is written outside the folder the gateway serves (each front end's tsconfig.json: outDir under
// node_modules/.cache/), so neither the shell's nor a remote's dist/ has it, and the gateway has nothing to serve.
// It used to be written to <front end>/dist/tsc/, which the gateway served as /tsc/... and /remotes/<short>/tsc/....
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteApps } from '../src/remotes';
import type { Gateway } from '../src/server';
import { createKeys, startFakeAccount, startGateway } from './support';

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** each front end and where the gateway serves its dist/ */
const frontEnds = [
  { workspace: 'shell', prefix: '/' },
  ...remoteApps.map((r) => ({ workspace: r.workspace, prefix: `/remotes/${r.short}/` })),
];

/** The files `tsc -b` writes for a front end: its build info and the declarations of its entry. */
function typeCheckOutputs(workspace: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(repoRoot, workspace, 'tsconfig.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error(`${workspace}/tsconfig.json: not read`);
  const entry = parsed.fileNames.find((f) => f.endsWith('/src/index.ts'));
  if (!entry) throw new Error(`${workspace}: no src/index.ts among its files`);
  const buildInfo = ts.getTsBuildInfoEmitOutputFilePath(parsed.options);
  return [...(buildInfo ? [buildInfo] : []), ...ts.getOutputFileNames(parsed, entry, false)];
}

let account: Awaited<ReturnType<typeof startFakeAccount>>;
/** on the real builds (STATIC_DIR and REMOTES_DIR by default) */
let built: { gateway: Gateway; url: string };

beforeAll(async () => {
  account = await startFakeAccount(await createKeys());
  built = await startGateway({ ACCOUNT_URL: account.url });
});

afterAll(async () => {
  await built?.gateway.close();
  await account?.close();
});

describe('what tsc writes for a front end', () => {
  for (const { workspace, prefix } of frontEnds) {
    it(`${workspace}: is written outside dist/, and the gateway serves none of it`, async () => {
      const dist = path.join(repoRoot, workspace, 'dist');
      const outputs = typeCheckOutputs(workspace);
      expect(outputs.some((f) => f.endsWith('.tsbuildinfo'))).toBe(true);
      expect(outputs.some((f) => f.endsWith('.d.ts'))).toBe(true);
      expect(outputs.filter((f) => f.startsWith(dist + path.sep))).toEqual([]);
      // were it under dist/ all the same (the old layout, dist/tsc/), this is where the gateway would serve it
      for (const file of ['tsconfig.tsbuildinfo', 'src/index.d.ts']) {
        const url = `${built.url}${prefix}tsc/${file}`;
        const res = await fetch(url);
        const body = await res.text();
        expect(res.status === 200 && !body.includes('<html'), `${url} served (${res.status})`).toBe(false);
      }
    });
  }
});
