// Every JMA sample report shipped in samples/ against the structure its fixture states (test/fixtures/jma/*.json,
// written by reading the XML, not from the parser's output).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AlertReport, parseJmaReport, parseReport } from '../src/index.ts';

const pkg = join(import.meta.dirname, '..');
const fixtureDir = join(pkg, 'test/fixtures/jma');

interface Fixture {
  sample: string;
  report: Partial<AlertReport>;
  counts: Record<string, number>;
  includes: Record<string, unknown[]>;
  absent: string[];
}
const fixtures = readdirSync(fixtureDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ name: f, ...(JSON.parse(readFileSync(join(fixtureDir, f), 'utf8')) as Fixture) }));

const at = (report: AlertReport, path: string): unknown =>
  path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], report);
const read = (sample: string) => readFileSync(join(pkg, 'samples', sample), 'utf8');

describe('JMA samples', () => {
  it('each shipped sample has a fixture, and the set covers what the package must read', () => {
    const shipped = ['jma', 'derived'].flatMap((d) => readdirSync(join(pkg, 'samples', d)).map((f) => `${d}/${f}`));
    expect(fixtures.map((f) => f.sample).sort()).toEqual(shipped.sort());
    const parsed = fixtures.map((f) => parseJmaReport(read(f.sample)));
    for (const type of ['VXSE51', 'VXSE52', 'VXSE53', 'VTSE41', 'VTSE51', 'VPWW54']) {
      expect(parsed.some((r) => r.jmaType === type && r.infoType === 'issued')).toBe(true);
    }
    expect(parsed.some((r) => r.infoType === 'cancelled')).toBe(true);
    expect(parsed.some((r) => r.infoType === 'corrected')).toBe(true);
    expect(parsed.some((r) => r.status === 'exercise')).toBe(true);
  });

  it.each(fixtures)('$name: $sample', (fixture) => {
    const report = parseJmaReport(read(fixture.sample));
    expect(report).toMatchObject(fixture.report);
    for (const [path, n] of Object.entries(fixture.counts)) expect(at(report, path), path).toHaveLength(n);
    for (const [path, items] of Object.entries(fixture.includes)) {
      expect(at(report, path), path).toEqual(expect.arrayContaining(items));
    }
    for (const path of fixture.absent) expect(at(report, path), path).toBeUndefined();
    // the root element picks the parser
    expect(parseReport(read(fixture.sample))).toEqual(report);
  });

  it('gives each report of one earthquake its own key, though VXSE53 and VTSE51 share EventID and serial', () => {
    const ids = fixtures.map((f) => parseJmaReport(read(f.sample)).reportId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a correction keeps the event of the report it corrects', () => {
    const original = parseJmaReport(read('jma/32-35_04_02_100831_VXSE51.xml'));
    const corrected = parseJmaReport(read('derived/32-35_04_02_100831_VXSE51_corrected.xml'));
    expect(corrected.eventId).toBe(original.eventId);
    expect(corrected.reportId).not.toBe(original.reportId);
  });
});
