#!/usr/bin/env node
// npm run tables -w @pagecast/alerts: writes src/data/places.json (the code tables the package ships) from the CSVs
// in data-src/ (JMA's tables as extracted by scripts/extract-jma-tables.py, and two small tables written by hand).
// Compact arrays rather than objects: the player bundles this file, and 1,800 municipalities are most of its weight.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toRomaji } from 'wanakana';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = (f) => join(pkg, 'data-src', f);

/** RFC 4180 enough for these files: quoted fields may hold commas and doubled quotes. */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else if (ch !== '\r') field += ch;
  }
  if (field || row.length) rows.push([...row, field]);
  const [header, ...body] = rows;
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

const read = (f) => parseCsv(readFileSync(src(f), 'utf8'));

/**
 * Simplified Hepburn without macrons (as on Japanese road signs) from JMA's kana reading: long vowels written
 * ou/oo/uu are shortened, the kind of municipality becomes a hyphenated suffix (Sapporo-shi, Nakano-ku, Okutama-machi).
 */
export function romajiOf(kana, name = '') {
  const suffixes = [
    ['し', '市', 'shi'],
    ['く', '区', 'ku'],
    ['ちょう', '町', 'chō'],
    ['まち', '町', 'machi'],
    ['むら', '村', 'mura'],
    ['そん', '村', 'son'],
  ];
  let stem = kana;
  let suffix = '';
  for (const [reading, kanji, roman] of suffixes) {
    if (name.endsWith(kanji) && kana.endsWith(reading) && kana.length > reading.length) {
      stem = kana.slice(0, -reading.length);
      suffix = roman === 'chō' ? 'cho' : roman;
      break;
    }
  }
  const roman = toRomaji(stem)
    .replace(/ou/g, 'o')
    .replace(/oo/g, 'o')
    .replace(/uu/g, 'u')
    .replace(/n'/g, 'n')
    .replace(/\//g, '·');
  const cap = roman.charAt(0).toUpperCase() + roman.slice(1);
  return suffix ? `${cap}-${suffix}` : cap;
}

export function build() {
  const all = read('jma/area-information-city.csv');
  const byCode = new Map(all.map((r) => [r.code, r]));
  const quake = read('jma/earthquake-area-cities.csv');
  const quakeByCode = new Map(quake.map((r) => [r.city_code, r]));
  const weather = all.filter((r) => r.weather_warning === '1');
  const weatherCodes = new Set(weather.map((r) => r.code));

  // A weather-warning municipality maps to the codes earthquake reports use for it: the same code for most; the
  // wards of a designated city (札幌市 0110000 → 札幌中央区 0110100 …, whose codes may run past the city's first four
  // digits); the whole municipality for a part JMA splits for warnings only (釧路市釧路 0120601 → 釧路市 0120600).
  const quakeCodesOf = (w) => {
    if (quakeByCode.has(w.code)) return [w.code];
    if (w.code.slice(4, 6) === '00') {
      const city = byCode.get(`${w.code.slice(0, 5)}00`) ?? w;
      const stem = city.name.replace(/市$/, '');
      const from = Number(w.code.slice(0, 5));
      return quake
        .filter((q) => {
          const n = Number(q.city_code.slice(0, 5));
          return n > from && n < from + 30 && !weatherCodes.has(q.city_code) && q.city_name.includes(stem);
        })
        .map((q) => q.city_code);
    }
    return quake.filter((q) => q.city_code.startsWith(w.code.slice(0, 6))).map((q) => q.city_code);
  };

  const regionPrefs = new Map(read('tsunami-region-prefectures.csv').map((r) => [r.region, r.prefectures.split(' ')]));
  // JMA's own groups check the hand-written table: a prefecture's 結合表現 (千葉県 → 310 311 312) must be exactly the
  // regions the table gives that prefecture
  const prefByName = new Map(read('prefectures.csv').map((p) => [p.ja, p.code]));
  for (const g of read('jma/tsunami-region-groups.csv').filter((x) => x.kind === '結合表現')) {
    const pref = prefByName.get(g.name);
    if (!pref) continue;
    const ours = [...regionPrefs].filter(([, prefs]) => prefs.includes(pref)).map(([code]) => code);
    if (ours.sort().join(' ') !== g.members.split(' ').sort().join(' ')) {
      throw new Error(`tsunami-region-prefectures.csv: ${g.name} has ${ours.join(' ')}, JMA's group ${g.members}`);
    }
  }
  const regions = read('jma/tsunami-regions.csv').map((r) => {
    const prefs = regionPrefs.get(r.code);
    if (!prefs) throw new Error(`tsunami region ${r.code} ${r.name}: no prefecture in tsunami-region-prefectures.csv`);
    return [r.code, r.name, romajiOf(r.kana)];
  });

  const problems = [];
  const cities = weather.map((w) => {
    const codes = quakeCodesOf(w);
    const areas = [...new Set(codes.map((c) => quakeByCode.get(c)?.area_code))];
    if (areas.length !== 1) problems.push(`${w.code} ${w.full_name}: earthquake areas ${areas.join(' ') || 'none'}`);
    const pref = w.code.slice(0, 2);
    // JMA names no tsunami region per municipality: a coastal one (storm surge or high waves are forecast for it)
    // gets its prefecture's regions, for the person placing the screen to choose from.
    const coastal = w.storm_surge === '1' || w.high_waves === '1';
    const tsunami = coastal ? regions.filter(([code]) => regionPrefs.get(code)?.includes(pref)).map(([c]) => c) : [];
    const name = w.name;
    // a part JMA splits off for warnings has no reading of its own: the municipality's reading stands in
    const parent = w.code.endsWith('0')
      ? undefined
      : (byCode.get(`${w.code.slice(0, 6)}0`) ?? byCode.get(`${w.code.slice(0, 5)}00`));
    const kana = w.kana || parent?.kana || '';
    // a split part reads as its municipality then the part (釧路市釧路 → Kushiro-shi Kushiro, 仙台市東部 → Sendai-shi Tobu)
    const romaji =
      parent?.kana && kana.startsWith(parent.kana) && kana.length > parent.kana.length
        ? `${romajiOf(parent.kana, parent.name)} ${romajiOf(kana.slice(parent.kana.length))}`
        : romajiOf(kana, name);
    return [w.code, name, kana, romaji, areas[0] ?? '', tsunami, codes];
  });
  if (problems.length) throw new Error(`cities without one earthquake area:\n${problems.join('\n')}`);

  const earthquakeAreas = Object.fromEntries(quake.map((q) => [q.area_code, q.area_name]));
  const prefectures = read('prefectures.csv').map((p) => [p.code, p.ja, p.en, p.fr, p.it]);
  const epicentres = Object.fromEntries(read('jma/epicentres.csv').map((e) => [e.code, e.name]));
  return { prefectures, cities, earthquakeAreas, tsunamiRegions: regions, epicentres };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tables = build();
  const out = join(pkg, 'src/data/places.json');
  writeFileSync(out, `${JSON.stringify(tables)}\n`);
  // in the repository's format (one row a line), so that a rerun on the same sources changes nothing
  execFileSync(join(pkg, '../../node_modules/.bin/biome'), ['format', '--write', out], { stdio: 'ignore' });
  process.stdout.write(
    `${out}: ${tables.prefectures.length} prefectures, ${tables.cities.length} municipalities, ` +
      `${Object.keys(tables.earthquakeAreas).length} earthquake areas, ${tables.tsunamiRegions.length} tsunami regions, ` +
      `${Object.keys(tables.epicentres).length} epicentre names\n`,
  );
}
