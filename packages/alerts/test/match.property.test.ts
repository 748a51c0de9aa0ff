// Properties of the matching rule over the real code tables: the rule decides which screens a disaster report takes
// over, so each property is one a wrong takeover (or a missed one) would break.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AlertReport,
  type CityInfo,
  citiesOf,
  cityByCode,
  concernsPlace,
  INTENSITIES,
  type Intensity,
  intensityRank,
  prefectures,
  type ScreenPlace,
  type TsunamiGrade,
} from '../src/index.ts';

const cities = prefectures()
  .flatMap((p) => citiesOf(p.code))
  .map((c) => cityByCode(c.code) as CityInfo);
const regionCodes = [...new Set(cities.flatMap((c) => c.tsunamiRegions))];
const areaCodes = [...new Set(cities.map((c) => c.earthquakeArea))];
const grades: TsunamiGrade[] = ['major-warning', 'warning', 'advisory', 'forecast', 'none'];

const city = fc.constantFrom(...cities);
const intensity = fc.constantFrom(...INTENSITIES);
const place = city.chain((c) =>
  fc
    .option(fc.constantFrom(...(c.tsunamiRegions.length ? c.tsunamiRegions : regionCodes)), { nil: null })
    .map((tsunamiRegion): ScreenPlace => ({ cityCode: c.code, tsunamiRegion })),
);

const base = (over: Partial<AlertReport>): AlertReport => ({
  source: 'jma',
  eventId: '20250101000000',
  serial: 1,
  reportId: 'jma:20250101000000:1:issued:VXSE53',
  infoType: 'issued',
  status: 'actual',
  title: '震源・震度に関する情報',
  kind: 'earthquake',
  reportedAt: '2025-01-01T00:00:00+09:00',
  headline: '',
  ...over,
});

/** An earthquake report over random areas and cities (the earthquake-report codes of random municipalities). */
const quake = fc
  .record({
    areas: fc.uniqueArray(fc.record({ code: fc.constantFrom(...areaCodes), intensity }), { selector: (a) => a.code }),
    cities: fc.uniqueArray(
      city.chain((c) => fc.record({ code: fc.constantFrom(...(c.earthquakeCities ?? [])), intensity })),
      { selector: (c) => c.code, maxLength: 20 },
    ),
  })
  .map(({ areas, cities: cs }) =>
    base({
      earthquake: {
        areas: areas.map((a) => ({ ...a, name: 'x' })),
        cities: cs.map((c) => ({ ...c, name: 'x' })),
      },
    }),
  );

const tsunami = fc
  .uniqueArray(fc.record({ code: fc.constantFrom(...regionCodes), grade: fc.constantFrom(...grades) }), {
    selector: (r) => r.code,
  })
  .map((regions) =>
    base({ kind: 'tsunami', jmaType: 'VTSE41', tsunami: { regions: regions.map((r) => ({ ...r, name: 'x' })) } }),
  );

const rank = (i: Intensity | undefined) => (i ? intensityRank(i) : 0);
const raise = (i: Intensity, by: number): Intensity => INTENSITIES[Math.min(8, intensityRank(i) - 1 + by)] as Intensity;

describe('concernsPlace', () => {
  it('is monotonic in intensity: stronger shaking everywhere never concerns a place less', () => {
    fc.assert(
      fc.property(quake, place, fc.nat(8), (report, p, by) => {
        const e = report.earthquake as NonNullable<AlertReport['earthquake']>;
        const stronger = {
          ...report,
          earthquake: {
            areas: e.areas.map((a) => ({ ...a, intensity: raise(a.intensity, by) })),
            cities: e.cities.map((c) => ({ ...c, intensity: raise(c.intensity, by) })),
          },
        };
        expect(rank(concernsPlace(stronger, p)?.intensity)).toBeGreaterThanOrEqual(
          rank(concernsPlace(report, p)?.intensity),
        );
      }),
    );
  });

  it('never matches a place outside every listed area, city and region', () => {
    fc.assert(
      fc.property(quake, tsunami, place, (q, t, p) => {
        const c = cityByCode(p.cityCode) as CityInfo;
        const mine = new Set(c.earthquakeCities);
        const e = q.earthquake as NonNullable<AlertReport['earthquake']>;
        const outside = base({
          earthquake: {
            areas: e.areas.filter((a) => a.code !== c.earthquakeArea),
            cities: e.cities.filter((x) => !mine.has(x.code)),
          },
        });
        expect(concernsPlace(outside, p)).toBeNull();
        const away = {
          ...t,
          tsunami: { regions: (t.tsunami?.regions ?? []).filter((r) => r.code !== p.tsunamiRegion) },
        };
        expect(concernsPlace(away, p)).toBeNull();
      }),
    );
  });

  it('lets the city beat its area: with a city list, the city intensity counts whatever the area says', () => {
    fc.assert(
      fc.property(place, intensity, intensity, (p, cityI, areaI) => {
        const c = cityByCode(p.cityCode) as CityInfo;
        const code = c.earthquakeCities?.[0] as string;
        const report = base({
          earthquake: {
            areas: [{ code: c.earthquakeArea, name: 'x', intensity: areaI }],
            cities: [{ code, name: 'x', intensity: cityI }],
          },
        });
        expect(concernsPlace(report, p)?.intensity).toBe(cityI);
        // without a city list, the area decides
        const areasOnly = base({ earthquake: { areas: report.earthquake?.areas ?? [], cities: [] } });
        expect(concernsPlace(areasOnly, p)?.intensity).toBe(areaI);
      }),
    );
  });

  it('raises a tsunami only for a coastal place with the region, at the grade listed there', () => {
    fc.assert(
      fc.property(tsunami, place, fc.constantFrom(...grades), (t, p, grade) => {
        const inland = { ...p, tsunamiRegion: null };
        expect(concernsPlace(t, inland)).toBeNull();
        if (p.tsunamiRegion === null) return;
        const regions = [
          ...(t.tsunami?.regions ?? []).filter((r) => r.code !== p.tsunamiRegion),
          { code: p.tsunamiRegion, name: 'x', grade },
        ];
        expect(concernsPlace({ ...t, tsunami: { regions } }, p)).toEqual({ tsunami: grade });
      }),
    );
  });

  it('lets a cancellation (取消) concern every place, so the app can end the takeover it started', () => {
    fc.assert(
      fc.property(fc.oneof(quake, tsunami), place, (r, p) => {
        const cancelled = { ...r, infoType: 'cancelled' as const, earthquake: undefined, tsunami: undefined };
        expect(concernsPlace(cancelled, p)).toEqual({});
      }),
    );
  });

  it("never lets an 'other' report concern a place", () => {
    fc.assert(
      fc.property(quake, place, (r, p) => {
        expect(concernsPlace({ ...r, kind: 'other' }, p)).toBeNull();
      }),
    );
  });

  it('lists the weather warnings in force at the city, never a lifted one', () => {
    const warning = fc.record({
      code: fc.constantFrom('03', '04', '33', '10'),
      name: fc.constantFrom('大雨警報', '洪水警報', '大雨特別警報', '大雨注意報'),
      level: fc.constantFrom('emergency' as const, 'warning' as const, 'advisory' as const),
      state: fc.constantFrom('issued' as const, 'continued' as const, 'lifted' as const),
    });
    fc.assert(
      fc.property(place, fc.array(warning, { maxLength: 5 }), (p, warnings) => {
        const report = base({
          kind: 'weather',
          jmaType: 'VPWW54',
          weather: { areas: [{ code: p.cityCode, name: 'x', warnings }] },
        });
        expect(concernsPlace(report, p)?.weather).toEqual(
          warnings.filter((w) => w.state !== 'lifted').map((w) => w.name),
        );
        const elsewhere = { ...report, weather: { areas: [{ code: '0000000', name: 'x', warnings }] } };
        expect(concernsPlace(elsewhere, p)).toBeNull();
      }),
    );
  });
});
