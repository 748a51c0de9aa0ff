// The architecture's boundaries are lint rules (biome.json overrides), not memory. Each rule is shown to fire on a
// sample that breaks it and to stay quiet on its allowed neighbour, with the repository's own biome.json.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const biome = join(root, 'node_modules/.bin/biome');

interface Diagnostic {
  category: string;
  location: { path: { file: string } | string; span?: [number, number] };
}

const samples: Record<string, string> = {
  // domain/ imports data/, use-cases/, http/, events/
  'services/alpha/src/domain/bad-data.ts': "import { x } from '../data/models';\nexport const y = x;\n",
  'services/alpha/src/domain/bad-use-case.ts':
    "import { x } from '../use-cases/transfer-points';\nexport const y = x;\n",
  'services/alpha/src/domain/bad-http.ts': "import { x } from '../http';\nexport const y = x;\n",
  'services/alpha/src/domain/bad-events.ts': "import { x } from '../events/consumers';\nexport const y = x;\n",
  'services/alpha/src/domain/good.ts':
    "import { x } from './fees';\nimport { z } from '@pagecast/contracts';\nexport const y = [x, z];\n",
  // a service imports another service
  'services/alpha/src/http/bad-relative.ts': "import { x } from '../../../beta/src/data';\nexport const y = x;\n",
  'services/alpha/src/bad-package.ts': "import { x } from '@pagecast/billing';\nexport const y = x;\n",
  'services/alpha/test/bad-test.ts': "import { x } from '../../beta/test/helpers';\nexport const y = x;\n",
  'services/alpha/src/http/bad-screens.ts': "import { x } from '@pagecast/screens';\nexport const y = x;\n",
  'services/alpha/src/domain/bad-screens.ts':
    "import { x } from '@pagecast/screens/src/domain';\nexport const y = x;\n",
  'services/alpha/src/use-cases/good.ts':
    "import { x } from '../data/models';\nimport { z } from '../../../../scripts/lib/stats.mjs';\nexport const y = [x, z];\n",
  // use-cases/ and http/ import a driver or a child process, or touch a connection (data/ may)
  'services/alpha/src/use-cases/bad-driver.ts': "import mongoose from 'mongoose';\nexport const y = mongoose;\n",
  'services/alpha/src/use-cases/bad-type-driver.ts':
    "import type { Connection } from 'mongoose';\nexport type Y = Connection;\n",
  'services/alpha/src/http/routes/bad-child.ts':
    "import { spawn } from 'node:child_process';\nexport const y = spawn;\n",
  'services/alpha/src/http/bad-storage.ts': "import { Client } from 'minio';\nexport const y = Client;\n",
  'services/alpha/src/use-cases/fleet/bad-jetstream.ts':
    "import { jetstream } from '@nats-io/jetstream';\nexport const y = jetstream;\n",
  'services/alpha/src/use-cases/bad-conn.ts':
    "export const y = (ctx: { conn: { collection(n: string): unknown } }) => ctx.conn.collection('screens');\n",
  'services/alpha/src/http/bad-nats.ts': 'export const y = (ctx: { nats: { js: unknown } }) => ctx.nats.js;\n',
  'services/alpha/src/data/good-driver.ts':
    "import mongoose from 'mongoose';\nexport const y = (ctx: { conn: mongoose.Connection }) => [mongoose.STATES, ctx.conn.collection('screens')];\n",
  'services/alpha/src/use-cases/good-data.ts':
    "import { AppError } from '@pagecast/service-kit';\nexport const y = (ctx: { data: { leases: unknown } }) => [ctx.data.leases, AppError];\n",
  // a front-end feature imports another feature
  'app/src/features/one/components/bad-view.tsx': "import { x } from '../../two/api/get-two';\nexport const y = x;\n",
  'app/src/features/one/bad-page.tsx': "import { x } from '../two/components/two-card';\nexport const y = x;\n",
  'shell/src/features/one/components/bad-view.tsx': "import { x } from '../../two/api/get-two';\nexport const y = x;\n",
  'app/src/features/one/components/good-view.tsx':
    "import { x } from '../api/get-one';\nimport { z } from '../../../lib/http';\nexport const y = [x, z];\n",
  // shared code importing a feature (the shell's frame once imported the header feature)
  'shell/src/components/bad-frame.tsx':
    "import { Header } from '../features/header/components/header';\nexport const y = Header;\n",
  'mf-player/src/lib/bad-helper.ts': "import { x } from '../features/screens/api/list-screens';\nexport const y = x;\n",
  'mf-player/src/components/deeper/bad-card.tsx':
    "import { x } from '../../features/one/api/get-one';\nexport const y = x;\n",
  'shell/src/app/good-frame.tsx':
    "import { Header } from '../features/header/components/header';\nexport const y = Header;\n",
  // a function of the front ends over 120 lines (the shell's, mf-files', mf-marketplace's)
  'mf-files/src/features/one/components/long-view.tsx': `export function LongView() {\n${Array.from({ length: 125 }, (_, i) => `  const v${i} = ${i};`).join('\n')}\n  return v0;\n}\n`,
  // import circles (a module reaching itself through its imports, e.g. server.ts <-> http/index.ts)
  'services/alpha/src/data/circle-one.ts': "import { two } from './circle-two';\nexport const one = () => two;\n",
  'services/alpha/src/data/circle-two.ts': "import { one } from './circle-one';\nexport const two = () => one;\n",
  // a circle of type-only imports (e.g. data/index.ts <-> data/sweeper.ts) is a circle too
  'services/alpha/src/data/type-circle-one.ts':
    "import type { Two } from './type-circle-two';\nexport interface One {\n  two?: Two;\n}\n",
  'services/alpha/src/data/type-circle-two.ts':
    "import type { One } from './type-circle-one';\nexport interface Two {\n  one?: One;\n}\n",
  // translations and routing come from the federation singletons, not from the libraries behind them
  'shell/src/components/bad-translate.tsx':
    "import { useTranslation } from 'react-i18next';\nexport const y = useTranslation;\n",
  'mf-player/src/features/one/components/bad-translate.tsx':
    "import { useTranslation } from 'react-i18next';\nexport const y = useTranslation;\n",
  'packages/ui/src/bad-route.tsx': "import { Link } from 'react-router';\nexport const y = Link;\n",
  'packages/i18n/src/good-react-i18next.ts':
    "import { initReactI18next } from 'react-i18next';\nexport const y = initReactI18next;\n",
  'mf-player/src/features/one/components/good-translate.tsx':
    "import { useTranslation } from '@pagecast/i18n';\nexport const y = useTranslation;\n",
  // file names are kebab-case
  'app/src/features/one/components/BadName.tsx': 'export const y = 1;\n',
  'app/src/features/one/components/good-name.tsx': 'export const y = 1;\n',
};

let dir = '';
let diagnostics: Diagnostic[] = [];

const fileOf = (d: Diagnostic) => (typeof d.location.path === 'string' ? d.location.path : d.location.path.file);
const rulesFor = (file: string) =>
  diagnostics.filter((d) => fileOf(d).replace(/\\/g, '/').endsWith(file)).map((d) => d.category);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pagecast-lint-'));
  const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as Record<string, unknown>;
  delete config.$schema;
  writeFileSync(join(dir, 'biome.json'), JSON.stringify(config));
  cpSync(join(root, 'scripts/lint'), join(dir, 'scripts/lint'), { recursive: true }); // the GritQL rules it names
  for (const [file, text] of Object.entries(samples)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  let out = '';
  try {
    out = execFileSync(biome, ['lint', '--reporter=json', '--max-diagnostics=none', '.'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    out = (err as { stdout: string }).stdout; // biome exits 1 when it reports errors, as expected here
  }
  diagnostics = (JSON.parse(out) as { diagnostics: Diagnostic[] }).diagnostics;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const restricted = 'lint/style/noRestrictedImports';
const naming = 'lint/style/useFilenamingConvention';
const circle = 'lint/suspicious/noImportCycles';
const plugin = 'plugin';

describe('lint rules that hold the architecture', () => {
  it.each([
    'services/alpha/src/domain/bad-data.ts',
    'services/alpha/src/domain/bad-use-case.ts',
    'services/alpha/src/domain/bad-http.ts',
    'services/alpha/src/domain/bad-events.ts',
  ])('domain/ importing data/, use-cases/, http/ or events/ fails: %s', (file) => {
    expect(rulesFor(file)).toContain(restricted);
  });

  it.each([
    'services/alpha/src/http/bad-relative.ts',
    'services/alpha/src/bad-package.ts',
    'services/alpha/test/bad-test.ts',
    'services/alpha/src/http/bad-screens.ts',
    'services/alpha/src/domain/bad-screens.ts',
  ])('a service importing another service fails: %s', (file) => {
    expect(rulesFor(file)).toContain(restricted);
  });

  it.each([
    'services/alpha/src/use-cases/bad-driver.ts',
    'services/alpha/src/use-cases/bad-type-driver.ts',
    'services/alpha/src/http/routes/bad-child.ts',
    'services/alpha/src/http/bad-storage.ts',
    'services/alpha/src/use-cases/fleet/bad-jetstream.ts',
  ])('use-cases/ or http/ importing a driver or a child process fails: %s', (file) => {
    expect(rulesFor(file)).toContain(restricted);
  });

  it.each(['services/alpha/src/use-cases/bad-conn.ts', 'services/alpha/src/http/bad-nats.ts'])(
    'use-cases/ or http/ touching a connection fails: %s',
    (file) => {
      expect(rulesFor(file)).toContain(plugin);
    },
  );

  it.each([
    'app/src/features/one/components/bad-view.tsx',
    'app/src/features/one/bad-page.tsx',
    'shell/src/features/one/components/bad-view.tsx',
  ])('a feature importing another feature fails: %s', (file) => {
    expect(rulesFor(file)).toContain(restricted);
  });

  it.each([
    'shell/src/components/bad-frame.tsx',
    'mf-player/src/lib/bad-helper.ts',
    'mf-player/src/components/deeper/bad-card.tsx',
  ])('shared code importing a feature fails: %s', (file) => {
    expect(rulesFor(file)).toContain(restricted);
  });

  it.each([
    'services/alpha/src/data/circle-one.ts',
    'services/alpha/src/data/circle-two.ts',
    'services/alpha/src/data/type-circle-one.ts',
    'services/alpha/src/data/type-circle-two.ts',
  ])('an import circle fails, type-only ones included: %s', (file) => {
    expect(rulesFor(file)).toContain(circle);
  });

  it.each([
    'shell/src/components/bad-translate.tsx',
    'mf-player/src/features/one/components/bad-translate.tsx',
    'packages/ui/src/bad-route.tsx',
  ])('a front end importing react-i18next or react-router instead of their singletons fails: %s', (file) => {
    expect(rulesFor(file)).toContain(restricted);
  });

  it('a front-end function over 120 lines fails', () => {
    expect(rulesFor('mf-files/src/features/one/components/long-view.tsx')).toContain(
      'lint/complexity/noExcessiveLinesPerFunction',
    );
  });

  it('a file name that is not kebab-case fails', () => {
    expect(rulesFor('app/src/features/one/components/BadName.tsx')).toContain(naming);
  });

  it.each([
    'services/alpha/src/domain/good.ts',
    'services/alpha/src/use-cases/good.ts',
    'services/alpha/src/data/good-driver.ts',
    'services/alpha/src/use-cases/good-data.ts',
    'app/src/features/one/components/good-view.tsx',
    'app/src/features/one/components/good-name.tsx',
    'packages/i18n/src/good-react-i18next.ts',
    'mf-player/src/features/one/components/good-translate.tsx',
    'shell/src/app/good-frame.tsx',
  ])('allowed imports and names pass: %s', (file) => {
    expect(rulesFor(file)).toEqual([]);
  });

  // the whole repository read beside the other test groups: 131 s on a slow host, past the 60 s every test gets
  it('the repository itself keeps the rules (biome lint is clean)', { timeout: 300_000 }, () => {
    expect(() =>
      execFileSync(biome, ['lint', '--max-diagnostics=20', '.'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }),
    ).not.toThrow();
  });
});
