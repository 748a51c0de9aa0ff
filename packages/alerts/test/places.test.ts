import { describe, expect, it } from 'vitest';
import { citiesOf, cityByCode, earthquakeAreaName, prefectures, tsunamiRegion } from '../src/index.ts';

describe('the code tables', () => {
  it('has the 47 prefectures named in the four languages', () => {
    const prefs = prefectures();
    expect(prefs).toHaveLength(47);
    expect(prefs[0]).toEqual({ code: '01', names: { ja: '北海道', en: 'Hokkaido', fr: 'Hokkaidō', it: 'Hokkaidō' } });
    expect(prefs.find((p) => p.code === '13')?.names.ja).toBe('東京都');
    for (const p of prefs) expect(Object.values(p.names).every((n) => n.length > 0)).toBe(true);
  });

  it('places every municipality in one earthquake area, named in JMA table', () => {
    const all = prefectures().flatMap((p) => citiesOf(p.code));
    expect(all).toHaveLength(1787);
    for (const c of all) {
      expect(c.code).toMatch(/^\d{7}$/);
      expect(earthquakeAreaName(c.earthquakeArea), c.code).toBeDefined();
      for (const r of c.tsunamiRegions) expect(tsunamiRegion(r), `${c.code} ${r}`).toBeDefined();
    }
  });

  it('knows 輪島市: 石川県能登, coastal, its tsunami candidates 石川県能登 and 加賀', () => {
    expect(cityByCode('1720400')).toEqual({
      code: '1720400',
      name: '輪島市',
      romaji: 'Wajima-shi',
      prefCode: '17',
      earthquakeArea: '390',
      tsunamiRegions: ['360', '361'],
      earthquakeCities: ['1720400'],
    });
    expect(earthquakeAreaName('390')).toBe('石川県能登');
    // a region JMA marks as also a group (領域表現) is a forecast region all the same
    expect(tsunamiRegion('120')?.name).toBe('オホーツク海沿岸');
    expect(cityByCode('0121100')?.tsunamiRegions).toContain('120'); // 網走市
    expect(tsunamiRegion('360')).toEqual({ code: '360', name: '石川県能登', romaji: 'Ishikawakennoto' });
  });

  it('maps a designated city to its wards for earthquake reports, an inland town to no tsunami region', () => {
    expect(cityByCode('0110000')?.earthquakeCities).toEqual([
      '0110100',
      '0110200',
      '0110300',
      '0110400',
      '0110500',
      '0110600',
      '0110700',
      '0110800',
      '0110900',
      '0111000',
    ]);
    // 軽井沢町 (長野県): no coast
    expect(cityByCode('2032100')).toMatchObject({ name: '軽井沢町', tsunamiRegions: [] });
    expect(cityByCode('0000000')).toBeUndefined();
    expect(citiesOf('99')).toEqual([]);
  });
});
