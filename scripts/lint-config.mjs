#!/usr/bin/env node
// node scripts/lint-config.mjs: writes biome.json from the one description of the architecture's boundaries below.
// Each rule is stated once here. Biome needs more than that: its import patterns are matched against the text of the
// import, so "leaves its own service" is `../*` in one folder and `../../*` one level down, and an override that
// sets a rule replaces what an earlier override set for it. So the script writes one override per region and depth,
// each holding every rule that covers it. tests/boundaries/lint-config.test.ts checks that the committed biome.json
// is what this script writes: edit this file, not biome.json, and run it again after adding a service.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** How many folders below a region's root (a service, a feature, domain/) the depth-dependent rules reach. */
export const DEPTH = 5;

const packageName = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name;

/** The package names a service must not import: every service (read from services/*) and the gateway. */
export function servicePackages(root = repoRoot) {
  const services = readdirSync(join(root, 'services'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, 'services', d.name, 'package.json')))
    .map((d) => packageName(join(root, 'services', d.name)))
    .sort();
  return [...services, packageName(join(root, 'gateway'))];
}

/** The drivers and processes only data/ touches: use-cases/ and http/ import none of them. */
export const DRIVERS = [
  'mongoose',
  'mongodb',
  'nats',
  '@nats-io/*',
  'minio',
  '@aws-sdk/*',
  'nodemailer',
  'stripe',
  'sharp',
  'mammoth',
  'child_process',
  'node:child_process',
  'worker_threads',
  'node:worker_threads',
];

/**
 * The boundaries, once each. `within`: the folders a rule covers (globs, no trailing slash). `leaveRoot`: a relative
 * import must not reach a sibling of that folder (another service, another feature); going further up is allowed.
 * `patterns`: imports refused wherever they are written from. `paths`: exact module names refused. `plugins`: Biome
 * GritQL rules (files, from the repository's root) that also hold there: what an import pattern cannot say.
 */
export function boundaries(root = repoRoot) {
  const router =
    'Routing comes from @pagecast/router, the federation singleton: a direct react-router import bundles a second router whose context the shell never provides.';
  return [
    {
      within: ['services/*'],
      leaveRoot: true,
      patterns: servicePackages(root).flatMap((name) => [name, `${name}/**`]),
      message:
        'A service never imports another service (or the gateway): facts travel as events and calls in packages/contracts.',
    },
    {
      within: ['services/*/src/domain'],
      patterns: ['data', 'http', 'events', 'use-cases']
        .flatMap((d) => [`**/${d}`, `**/${d}/**`])
        .concat('**/main', '**/server'),
      message:
        'domain/ holds the rules as plain functions and types: it imports nothing from data/, http/, events/ or use-cases/.',
    },
    {
      within: ['services/*/src/use-cases', 'services/*/src/http'],
      patterns: DRIVERS.flatMap((name) => [name, `${name}/**`]),
      plugins: ['./scripts/lint/no-connections.grit'],
      message:
        "use-cases/ and http/ import no driver or child process: data/ holds the repositories and adapters, reached through ctx.data (the kit's leases and claims too).",
    },
    {
      within: ['**/src/features/*'],
      leaveRoot: true,
      message:
        'A feature does not import another feature: move what two features share up (src/lib, src/components or packages/).',
    },
    {
      // layers run one way, app → features → shared (bulletproof-react): a shared part that named a feature would
      // tie every feature using it to that one
      within: ['shell/src/components', 'shell/src/lib', 'shell/src/federation', 'mf-*/src/components', 'mf-*/src/lib'],
      patterns: ['**/features', '**/features/**'],
      message:
        'Shared code (src/components, src/lib, src/federation) does not import a feature: compose features in src/app or src/routes, or move the part up.',
    },
    {
      within: ['shell', 'mf-*', 'packages/ui', 'packages/i18n'],
      paths: { 'react-router': router, 'react-router/dom': router },
    },
    {
      // packages/i18n is where react-i18next is wrapped, so it alone may import it
      within: ['shell', 'mf-*', 'packages/ui'],
      paths: {
        'react-i18next':
          'Translations come from @pagecast/i18n (useTranslation), the federation singleton: react-i18next shared as itself is built whole, <Trans> and its HTML parser included, on every first screen.',
      },
    },
  ];
}

/** Settings that are not boundaries, written as they are. */
const base = {
  $schema: './node_modules/@biomejs/biome/configuration_schema.json',
  files: {
    includes: ['**', '!**/dist', '!**/node_modules', '!.data', '!**/*.tsbuildinfo', '!package-lock.json'],
  },
  formatter: { enabled: true, indentStyle: 'space', indentWidth: 2, lineWidth: 120 },
  javascript: { formatter: { quoteStyle: 'single' } },
  linter: {
    enabled: true,
    rules: {
      preset: 'recommended',
      suspicious: {
        // a circle of type-only imports is a circle too: the two modules cannot be understood (or moved) apart
        noImportCycles: { level: 'error', options: { ignoreTypes: false } },
      },
      style: {
        useFilenamingConvention: { level: 'error', options: { filenameCases: ['kebab-case'], requireAscii: true } },
      },
    },
  },
  assist: { actions: { source: { organizeImports: 'off' } } },
};

const lastOverrides = [
  {
    // a component read in one sitting: split by what the person sees (a card, a dialog's footer, a tab bar)
    includes: ['shell/src/**', 'mf-files/src/**', 'mf-marketplace/src/**', 'mf-player/src/**'],
    linter: { rules: { complexity: { noExcessiveLinesPerFunction: { level: 'error', options: { maxLines: 120 } } } } },
  },
  { includes: ['deploy/**/*.test.ts'], linter: { rules: { suspicious: { noTemplateCurlyInString: 'off' } } } },
  {
    includes: ['services/file-conversion/src/conversion/render-mupdf.js'],
    linter: { enabled: false },
    javascript: { formatter: { trailingCommas: 'none' } },
  },
];

/** Whether `scope` covers every file under `region` (both folder globs). */
function covers(scope, region) {
  if (region === scope || region.startsWith(`${scope}/`)) return true;
  return scope.startsWith('**/') && region.endsWith(`/${scope.slice(3)}`);
}

/** Folders between the root of `scope` and `region` (0: the region is the scope's root). */
function offset(scope, region) {
  if (region === scope || scope.startsWith('**/')) return 0;
  const rest = region.slice(scope.length + 1);
  if (rest.includes('**')) throw new Error(`${region}: no fixed depth below ${scope}`);
  return rest.split('/').length;
}

/** The regions: every rule's folders, and each `**` folder inside every other rule's folder (shell's features). */
function regionsOf(rules) {
  const scopes = [...new Set(rules.flatMap((r) => r.within))];
  const nested = scopes
    .filter((s) => s.startsWith('**/'))
    .flatMap((inner) => scopes.filter((s) => !s.startsWith('**/')).map((outer) => `${outer}/${inner}`))
    // only where the outer rules do not depend on depth (a feature folder at any depth of a service would)
    .filter((region) =>
      rules.every((r) => !r.leaveRoot || r.within.every((s) => !covers(s, region) || s.startsWith('**/'))),
    );
  return [...scopes, ...nested];
}

/** The noRestrictedImports options for a file `depth` folders below `region`, from the rules that cover it. */
function restrictions(rules, region, depth) {
  const patterns = [];
  const paths = {};
  for (const rule of rules) {
    const scope = rule.within.find((s) => covers(s, region));
    if (scope === undefined) continue;
    const group = [];
    if (rule.leaveRoot) {
      const up = '../'.repeat(offset(scope, region) + depth);
      group.push(`${up}*`, `${up}*/**`, `!../${up}**`);
    }
    group.push(...(rule.patterns ?? []));
    if (group.length) patterns.push({ group, message: rule.message });
    Object.assign(paths, rule.paths);
  }
  return {
    level: 'error',
    options: { ...(patterns.length ? { patterns } : {}), ...(Object.keys(paths).length ? { paths } : {}) },
  };
}

const restricting = (includes, rule, plugins = []) => ({
  includes,
  ...(plugins.length ? { plugins } : {}),
  linter: { rules: { style: { noRestrictedImports: rule } } },
});

/** The GritQL rules of the rules that cover a region. */
const pluginsOf = (rules) => [...new Set(rules.flatMap((r) => r.plugins ?? []))];

/** The whole configuration, as an object. */
export function lintConfig(root = repoRoot) {
  const rules = boundaries(root);
  const regions = regionsOf(rules).map((region) => {
    const covering = rules.filter((r) => r.within.some((s) => covers(s, region)));
    return { region, covering, byDepth: covering.some((r) => r.leaveRoot) };
  });
  // Regions covered by the same rules share overrides. Fewer rules first: a region inside another is covered by more
  // rules than it, and its override must come later to win (an override replaces the rule as set before it).
  const groups = new Map();
  for (const r of regions) {
    const key = JSON.stringify(restrictions(r.covering, r.region, 1));
    if (!groups.has(key)) groups.set(key, { ...r, regions: [] });
    groups.get(key).regions.push(r.region);
  }
  const overrides = [...groups.values()]
    .sort((a, b) => a.covering.length - b.covering.length)
    .flatMap((g) =>
      g.byDepth
        ? Array.from({ length: DEPTH }, (_, i) =>
            restricting(
              g.regions.map((region) => `${region}${'/*'.repeat(i + 1)}`),
              restrictions(g.covering, g.region, i + 1),
              pluginsOf(g.covering),
            ),
          )
        : [
            restricting(
              g.regions.map((region) => `${region}/**`),
              restrictions(g.covering, g.region, 1),
              pluginsOf(g.covering),
            ),
          ],
    );
  return { ...base, overrides: [...overrides, ...lastOverrides] };
}

/** The configuration as biome.json's text, formatted by Biome with the configuration's own settings. */
export function lintConfigText(root = repoRoot) {
  const config = lintConfig(root);
  const dir = mkdtempSync(join(tmpdir(), 'pagecast-lint-config-'));
  try {
    // the formatter's settings; the GritQL rules are left out (their files are not in this folder)
    const { $schema: _, overrides, ...settings } = config;
    const bare = overrides.map(({ plugins: __, ...o }) => o);
    writeFileSync(join(dir, 'biome.json'), JSON.stringify({ ...settings, overrides: bare }));
    return execFileSync(join(repoRoot, 'node_modules/.bin/biome'), ['format', '--stdin-file-path=biome.json'], {
      cwd: dir,
      input: `${JSON.stringify(config, null, 2)}\n`,
      encoding: 'utf8',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// --print: write the text to stdout instead (tests/boundaries); --root <dir>: read the services from another tree.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { print: { type: 'boolean' }, root: { type: 'string' } } });
  const text = lintConfigText(values.root ? resolve(values.root) : repoRoot);
  if (values.print) process.stdout.write(text);
  else {
    writeFileSync(join(repoRoot, 'biome.json'), text);
    process.stdout.write('biome.json written from scripts/lint-config.mjs\n');
  }
}
