// Installs the machine-level tools the project needs, idempotently, printing progress.
// Go-built servers are cached outside the checkout, keyed by name and version, so a fresh
// clone (and CI on the same machine) reuses them.
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  cpSync,
  readFileSync,
  writeFileSync,
  appendFileSync,
  chmodSync,
  rmSync,
  renameSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const cacheDir = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'pagecast');
export const binDir = join(cacheDir, 'bin');

const GO = existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : 'go';

/**
 * Replaces each of the `times` occurrences of `from` by `to` in a source file of a module, and fails when `from` is
 * not there that many times (a new version moved or changed it).
 */
function patchSource(dir, file, from, to, times = 1) {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  const found = text.split(from).length - 1;
  if (found !== times) throw new Error(`patch: ${JSON.stringify(from)} found ${found} times in ${file}, not ${times}`);
  writeFileSync(path, text.replaceAll(from, to));
}

/**
 * Each Go tool: how to build it, and the binary name it ends up as (name-version, plus `-<patch>` for a build of ours
 * with source changes, so that a changed build never reuses an older cached binary).
 */
export const goTools = {
  'nats-server': { version: 'v2.14.5', module: 'github.com/nats-io/nats-server/v2', kind: 'install' },
  ferretdb: {
    version: 'v1.24.2',
    patch: 'pc4',
    module: 'github.com/FerretDB/FerretDB',
    kind: 'build',
    pkg: './cmd/ferretdb',
    prepare: (dir, version) => {
      // The module zip lacks build/version/version.txt; without it the binary panics at start.
      writeFileSync(join(dir, 'build/version/version.txt'), version);
      // pc1: the SQLite backend looks documents up by `_ferretdb_sjson->'$._id'`, but creates the _id index on
      // `_ferretdb_sjson->"_id"`. SQLite matches an indexed expression by its text, so every find, update and delete
      // by _id scanned the whole table (measured: 0.3 ms of FerretDB CPU for a findOne by _id among 10 documents,
      // 30 ms among 20,000). `->'_id'` means the same path and is the index's expression (deploy/ferretdb.test.ts).
      patchSource(
        dir,
        'internal/backends/sqlite/metadata/metadata.go',
        `IDColumn = DefaultColumn + "->'$._id'"`,
        `IDColumn = DefaultColumn + "->'_id'"`,
      );
      // pc2: the backend used that index only when the filter was `_id` alone. A filter naming `_id` and more
      // (`{ _id, expire: { $gt: now } }`, `{ _id, at: { $lte: at } }`, every conditional update by id) scanned the
      // table: a session check, or a read model's update per event, cost FerretDB time in proportion to the
      // collection (one consumer held a core for minutes replaying events). Top-level keys are ANDed, and FerretDB
      // applies the whole filter to what the backend returns, so narrowing by `_id` first returns the same
      // documents. Filters with a repeated key keep the old path (Get panics on them).
      patchSource(
        dir,
        'internal/backends/sqlite/collection.go',
        `\tif params.Filter.Len() == 1 {\n\t\tv, _ := params.Filter.Get("_id")`,
        `\tif params.Filter.Len() > 0 && params.Filter.Has("_id") && func() bool { _, dup := params.Filter.FindDuplicateKey(); return !dup }() {\n\t\tv, _ := params.Filter.Get("_id")`,
        2,
      );
      // pc4: a filter on `_id: { $in: [...] }` (strings or ObjectIds) scanned the table too: the backend narrowed only
      // by one _id. A batch of reads by id (a login's member reads, a user's sessions to delete) is one command
      // instead of one each, but only if it is a search of the index. The same path, `IN (...)`: the handler still
      // applies the whole filter to what comes back. Longer lists (over 500) and other values keep the scan.
      patchSource(
        dir,
        'internal/backends/sqlite/collection.go',
        `\t\t\targs = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}\n\t\t}\n`,
        `\t\t\targs = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}\n\t\tcase *types.Document:\n\t\t\tif w, a, ok := pagecastIDIn(v.(*types.Document)); ok {\n\t\t\t\twhereClause, args = w, a\n\t\t\t}\n\t\t}\n`,
        2,
      );
      appendFileSync(
        join(dir, 'internal/backends/sqlite/collection.go'),
        `
// pagecastIDIn is the WHERE clause for {$in: [ids]} on _id (Pagecast's build, pc4): strings and ObjectIDs only.
func pagecastIDIn(d *types.Document) (string, []any, bool) {
\tif d.Len() != 1 {
\t\treturn "", nil, false
\t}
\tv, err := d.Get("$in")
\tarr, isArr := v.(*types.Array)
\tif err != nil || !isArr || arr.Len() == 0 || arr.Len() > 500 {
\t\treturn "", nil, false
\t}
\targs := make([]any, 0, arr.Len())
\tfor i := 0; i < arr.Len(); i++ {
\t\te := must.NotFail(arr.Get(i))
\t\tswitch e.(type) {
\t\tcase string, types.ObjectID:
\t\t\targs = append(args, string(must.NotFail(sjson.MarshalSingleValue(e))))
\t\tdefault:
\t\t\treturn "", nil, false
\t\t}
\t}
\treturn fmt.Sprintf(\` WHERE %s IN (?%s)\`, metadata.IDColumn, strings.Repeat(", ?", len(args)-1)), args, true
}
`,
      );
      // pc3: every iterator, cursor and connection was tracked for leak checks in release builds too: a stack trace
      // taken into a pprof profile and a finalizer that panics if the object is collected untracked. It was 19% of
      // FerretDB's CPU on findOne by _id (go tool pprof of its /debug/pprof/profile, 8 clients in a loop), and its
      // allocations fed the GC. Tracking now runs in debug builds only, as the stack it records already did.
      // (Track goes on with `name := profileName(obj)`, Untrack with `p := pprof.Lookup(profileName(obj))`.)
      for (const next of ['\tname := profileName(obj)\n', '\tp := pprof.Lookup(profileName(obj))\n']) {
        patchSource(
          dir,
          'internal/util/resource/resource.go',
          `\tcheckArgs(obj, token)\n\n${next}`,
          `\tcheckArgs(obj, token)\n\n\tif !debugbuild.Enabled {\n\t\treturn\n\t}\n\n${next}`,
        );
      }
      // And each find formatted its parameters for a debug log line that the log level then dropped (3.4%).
      patchSource(
        dir,
        'internal/handler/msg_find.go',
        '\th.L.DebugContext(ctx, fmt.Sprintf("Converted %+v for %+v to %+v.", params, cInfo, qp))\n',
        '',
      );
    },
  },
  minio: {
    version: 'v0.0.0-20260212201848-7aac2a2c5b7c',
    module: 'github.com/minio/minio',
    kind: 'install',
  },
  'docker-compose': { version: 'v5.1.0', module: 'github.com/docker/compose/v5', kind: 'build', pkg: './cmd' },
  k6: { version: 'v1.8.1', module: 'go.k6.io/k6', kind: 'install' },
};

export function toolPath(name) {
  const { version, patch } = goTools[name];
  return join(binDir, `${name}-${version}${patch ? `-${patch}` : ''}`);
}

function log(msg) {
  process.stdout.write(`[setup] ${msg}\n`);
}

function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}\n${err.slice(-4000)}`)),
    );
  });
}

/** Runs fn while printing elapsed time every 15 s, so a long build never looks hung. */
async function withProgress(label, fn) {
  const started = Date.now();
  log(`${label} ...`);
  const timer = setInterval(
    () => log(`${label}: still working (${Math.round((Date.now() - started) / 1000)} s)`),
    15000,
  );
  try {
    const r = await fn();
    log(`${label}: done in ${Math.round((Date.now() - started) / 1000)} s`);
    return r;
  } finally {
    clearInterval(timer);
  }
}

export async function ensureGoTool(name) {
  const tool = goTools[name];
  const target = toolPath(name);
  if (existsSync(target)) return target;
  mkdirSync(binDir, { recursive: true });
  const env = { ...process.env, GOFLAGS: '-buildvcs=false', CGO_ENABLED: process.env.CGO_ENABLED ?? '0' };
  const tmp = `${target}.tmp-${process.pid}`;
  await withProgress(`building ${name} ${tool.version} from the Go module proxy (cached in ${binDir})`, async () => {
    if (tool.kind === 'install') {
      const gobin = join(cacheDir, 'gobin-tmp', `${name}-${process.pid}`);
      mkdirSync(gobin, { recursive: true });
      await run(GO, ['install', `${tool.module}@${tool.version}`], { env: { ...env, GOBIN: gobin } });
      const base = tool.module
        .split('/')
        .filter((p) => !/^v\d+$/.test(p))
        .pop();
      renameSync(join(gobin, base), tmp);
      rmSync(gobin, { recursive: true, force: true });
    } else {
      const info = JSON.parse(await run(GO, ['mod', 'download', '-json', `${tool.module}@${tool.version}`], { env }));
      const src = join(cacheDir, 'src', `${name}-${tool.version}`);
      rmSync(src, { recursive: true, force: true });
      cpSync(info.Dir, src, { recursive: true });
      spawnSync('chmod', ['-R', 'u+w', src]);
      tool.prepare?.(src, tool.version);
      await run(GO, ['build', '-o', tmp, tool.pkg], { cwd: src, env });
      rmSync(src, { recursive: true, force: true });
    }
    chmodSync(tmp, 0o755);
    renameSync(tmp, target); // atomic: a half-built binary is never mistaken for a cached one
  });
  return target;
}

function dpkgInstalled(pkg) {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format syntax, not a JS template
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

let aptUpdated = false;
export async function ensureDebianPackages(pkgs) {
  const missing = pkgs.filter((p) => !dpkgInstalled(p));
  if (missing.length === 0) return;
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const apt = (args) => (sudo.length ? run('sudo', ['apt-get', ...args]) : run('apt-get', args));
  await withProgress(`installing Debian packages: ${missing.join(' ')}`, async () => {
    if (!aptUpdated) {
      await apt(['update', '-q']);
      aptUpdated = true;
    }
    await run(
      sudo.length ? 'sudo' : 'apt-get',
      [...(sudo.length ? ['apt-get'] : []), 'install', '-y', '-q', '--no-install-recommends', ...missing],
      {
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      },
    );
  });
}

/** Debian packages, by purpose. Which entry point installs which lists: `installedBy`. */
export const debian = {
  // mupdf-tools: mutool draws PDF pages (render-mupdf.js). python3-uno: the warm converter drives a long-lived
  // LibreOffice through it (office-convert.py). libheif-examples: heif-convert decodes HEIC photos (HEVC, which
  // sharp's prebuilt libvips leaves out) in a sandboxed process (convert-image.ts); its heif-enc makes the test HEIC.
  conversion: [
    'mupdf-tools',
    'libreoffice-writer-nogui',
    'libreoffice-impress-nogui',
    'fonts-noto-cjk',
    'python3-uno',
    'libheif-examples',
    // ffprobe and ffmpeg: an uploaded video's probe, remux or transcode and poster (and the media corpus's files)
    'ffmpeg',
  ],
  browser: ['chromium'],
  // wrk and nginx: the page-image benchmark (gateway/bench/images.bench.mjs) measures both with the same load.
  bench: ['poppler-utils', 'wrk', 'nginx-light'],
  // The Office corpus tests count a PDF's pages with pdfinfo; deploy/nginx.test.ts runs Debian's nginx.
  test: ['poppler-utils', 'nginx-light'],
  // schemathesis and localstripe run from venvs of Debian's python3 (ensurePythonTool).
  python: ['python3', 'python3-venv'],
  // nginx in front of replicated processes and of the clustered MinIO nodes (npm start -- --replicas N / --cluster).
  proxy: ['nginx-light'],
};

/** The lists each entry point installs: npm start (stack), npm test, npm run bench. */
export const installedBy = {
  start: ['conversion', 'python', 'proxy'],
  test: ['conversion', 'browser', 'test', 'python'],
  bench: ['conversion', 'browser', 'bench'],
};

export function debianFor(entry) {
  return [...new Set(installedBy[entry].flatMap((list) => debian[list]))];
}

/**
 * Every command the project's code, tests, benchmarks and scripts run, and where it comes from: a Debian package
 * of the lists above, a Go tool of `goTools`, a PyPI tool of `pythonTools`, npm (node_modules/.bin), or `base`:
 * part of every Debian system or a stated prerequisite (README: Node, npm, Go, root or sudo).
 * deploy/tools.test.ts fails when code spawns a command that is not here or whose source no entry point installs.
 */
export const commands = {
  soffice: { debian: 'libreoffice-writer-nogui' },
  pdfinfo: { debian: 'poppler-utils' },
  pdftoppm: { debian: 'poppler-utils' },
  pdftotext: { debian: 'poppler-utils' },
  mutool: { debian: 'mupdf-tools' },
  'heif-convert': { debian: 'libheif-examples' },
  'heif-enc': { debian: 'libheif-examples' },
  ffmpeg: { debian: 'ffmpeg' },
  ffprobe: { debian: 'ffmpeg' },
  nginx: { debian: 'nginx-light' },
  wrk: { debian: 'wrk' },
  chromium: { debian: 'chromium' },
  python3: { debian: 'python3' },
  st: { python: 'schemathesis' },
  unshare: { base: 'util-linux (essential)' },
  prlimit: { base: 'util-linux (essential)' },
  // the load pins the stack to one core and itself to another (load/lib/stack-cpu.mjs)
  taskset: { base: 'util-linux (essential)' },
  getconf: { base: 'libc-bin (essential)' },
  stdbuf: { base: 'coreutils (essential)' },
  sh: { base: 'dash (essential)' },
  pgrep: { base: 'procps (required)' },
  ls: { base: 'coreutils (essential)' },
  chmod: { base: 'coreutils (essential)' },
  true: { base: 'coreutils (essential)' },
  'dpkg-query': { base: 'dpkg (essential)' },
  'apt-get': { base: 'apt (required)' },
  sudo: { base: 'prerequisite when not root (README)' },
  go: { base: 'prerequisite (README: Go in /usr/local/go)' },
  node: { base: 'prerequisite (README); Node 24 comes from npm' },
  npm: { base: 'prerequisite (README)' },
  npx: { base: 'prerequisite (README): comes with npm' },
  tsx: { npm: 'tsx' },
  rspack: { npm: '@rspack/cli' },
};

/**
 * PyPI tools, each in its own venv under the cache, keyed by name and version. localstripe stands in for the card
 * provider in development and tests: unlike stripe-mock it keeps PaymentIntents, confirms them with test cards and
 * sends signed webhooks. schemathesis fuzzes the services' OpenAPI documents in npm test.
 */
export const pythonTools = {
  schemathesis: { version: '4.32.5', bin: 'st' },
  localstripe: { version: '1.15.10', bin: 'localstripe' },
};

export function pythonToolPath(name) {
  const tool = pythonTools[name];
  return join(cacheDir, 'venv', `${name}-${tool.version}`, 'bin', tool.bin);
}

/** Installs a PyPI tool into its own venv (Debian's python3, installed first), once. A venv cannot move (its
 * launchers name their own path), so it is built in place and counts only once its `.complete` marker exists. */
export async function ensurePythonTool(name) {
  const tool = pythonTools[name];
  const target = pythonToolPath(name);
  const venv = join(cacheDir, 'venv', `${name}-${tool.version}`);
  const marker = join(venv, '.complete');
  if (existsSync(marker) && existsSync(target)) return target;
  await ensureDebianPackages(debian.python);
  await withProgress(`installing ${name} ${tool.version} from PyPI into ${venv}`, async () => {
    rmSync(venv, { recursive: true, force: true });
    mkdirSync(join(cacheDir, 'venv'), { recursive: true });
    await run('/usr/bin/python3', ['-m', 'venv', venv]);
    await run(join(venv, 'bin', 'pip'), ['install', '-q', '--disable-pip-version-check', `${name}==${tool.version}`]);
    writeFileSync(marker, `${name}==${tool.version}\n`);
  });
  return target;
}
