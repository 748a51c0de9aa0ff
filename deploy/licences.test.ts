// The project's licence and its dependencies' (scripts/lib/licences.mjs): every npm package in the lock and every
// program the scripts install has a licence on the allowed list, and THIRD_PARTY_NOTICES.md is the one the lock makes.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  licenceAllowed,
  MEDIA_SAMPLES,
  MEDIA_SAMPLES_DIR,
  mediaSampleProblems,
  noticeIsCurrent,
  npmPackages,
  PROJECT_LICENCE,
  problems,
  tools,
} from '../scripts/lib/licences.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('licences', () => {
  it('reads SPDX expressions: OR needs one allowed branch, AND needs all', () => {
    expect(licenceAllowed('MIT')).toBe(true);
    expect(licenceAllowed('(MIT OR GPL-3.0-or-later)')).toBe(true);
    expect(licenceAllowed('(MIT OR SSPL-1.0)')).toBe(true);
    expect(licenceAllowed('(MIT AND SSPL-1.0)')).toBe(false);
    expect(licenceAllowed('Apache-2.0 AND LGPL-3.0-or-later AND MIT')).toBe(true);
    expect(licenceAllowed('SSPL-1.0')).toBe(false);
    expect(licenceAllowed('BUSL-1.1')).toBe(false);
    expect(licenceAllowed('UNLICENSED')).toBe(false);
    expect(licenceAllowed('(SSPL-1.0 OR (BUSL-1.1 AND MIT))')).toBe(false);
  });

  it('finds every installed npm package in the lock, with a licence', () => {
    const pkgs = npmPackages(root);
    // the lock lists hundreds; a broken reader would find none
    expect(pkgs.length).toBeGreaterThan(300);
    expect(pkgs.find((p) => p.name === 'express')).toMatchObject({ licence: 'MIT', dev: false });
    expect(pkgs.find((p) => p.name === 'vitest')).toMatchObject({ dev: true });
  });

  it('states a licence for every program the scripts install', () => {
    for (const t of tools()) expect(t.licence, `${t.kind} ${t.name}`).toEqual(expect.any(String));
    expect(tools().find((t) => t.name === 'mupdf-tools')?.licence).toBe('AGPL-3.0-or-later');
  });

  it('accepts every dependency (a new one off the allowed list fails here)', () => {
    expect(problems(root)).toEqual([]);
  });

  it('names every real-world media sample with its licence: an unlisted file or a missing one is a problem', () => {
    expect(mediaSampleProblems(root)).toEqual([]);
    const names = Object.keys(MEDIA_SAMPLES);
    expect(names.length).toBeGreaterThanOrEqual(5);
    // each sample's row is in the README beside the files too
    const readme = readFileSync(join(root, MEDIA_SAMPLES_DIR, 'README.md'), 'utf8');
    for (const name of names) expect(readme, name).toContain(`\`${name}\``);
    const other = mkdtempSync(join(tmpdir(), 'pagecast-media-licences-'));
    try {
      const dir = join(other, MEDIA_SAMPLES_DIR);
      mkdirSync(dir, { recursive: true });
      for (const name of names.slice(1)) writeFileSync(join(dir, name), '');
      writeFileSync(join(dir, 'found-online.jpg'), '');
      writeFileSync(join(dir, 'README.md'), '');
      expect(mediaSampleProblems(other)).toEqual([
        `media ${MEDIA_SAMPLES_DIR}/found-online.jpg: no entry in scripts/lib/licences.mjs MEDIA_SAMPLES`,
        `media ${MEDIA_SAMPLES_DIR}/${names[0]}: listed in MEDIA_SAMPLES but missing`,
      ]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('keeps THIRD_PARTY_NOTICES.md current (run node scripts/licences.mjs after changing dependencies)', () => {
    expect(noticeIsCurrent(root)).toBe(true);
  });

  it('ships the project licence and names it in package.json', () => {
    expect(readFileSync(`${root}/LICENSE`, 'utf8')).toMatch(/GNU AFFERO GENERAL PUBLIC LICENSE\s+Version 3/);
    expect(JSON.parse(readFileSync(`${root}/package.json`, 'utf8')).license).toBe(PROJECT_LICENCE);
  });
});
