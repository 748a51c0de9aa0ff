import { intensityRank } from './intensity.ts';
import { earthquakeAreaOf, earthquakeCitiesOf } from './places.ts';
import type { AlertReport, Intensity, PlaceConcern, ScreenPlace, TsunamiGrade } from './types.ts';

const strongest = (values: Intensity[]): Intensity | undefined =>
  values.reduce<Intensity | undefined>(
    (a, b) => (a === undefined || intensityRank(b) > intensityRank(a) ? b : a),
    undefined,
  );

/** Ray casting on [lat, lon] rings; a point on an edge may fall either way, which a takeover can live with. */
export function pointInPolygon([lat, lon]: [number, number], ring: Array<[number, number]>): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [latI, lonI] = ring[i] as [number, number];
    const [latJ, lonJ] = ring[j] as [number, number];
    if (lonI > lon !== lonJ > lon && lat < ((latJ - latI) * (lon - lonI)) / (lonJ - lonI) + latI) inside = !inside;
  }
  return inside;
}

const CAP_INTENSITY: Record<string, Intensity> = { Extreme: '6-', Severe: '5-', Moderate: '4', Minor: '3' };
const CAP_TSUNAMI: Record<string, TsunamiGrade> = {
  Extreme: 'major-warning',
  Severe: 'warning',
  Moderate: 'advisory',
  Minor: 'forecast',
};

/** CAP areas: the place's point inside one of the polygons, or its city code among the geocodes. */
function capConcern(report: AlertReport, place: ScreenPlace): PlaceConcern | null {
  const byCode = report.areaCodes?.includes(place.cityCode) ?? false;
  const byPoint =
    place.point !== undefined &&
    (report.polygons ?? []).some((ring) => pointInPolygon(place.point as [number, number], ring));
  if (!byCode && !byPoint) return null;
  if (report.infoType === 'cancelled') return {};
  // CAP says how severe, not how strong: its severity stands for the intensity or tsunami grade
  const severity = report.capSeverity ?? '';
  if (report.kind === 'earthquake')
    return { intensity: report.earthquake?.maxIntensity ?? CAP_INTENSITY[severity] ?? '4' };
  if (report.kind === 'tsunami') return { tsunami: CAP_TSUNAMI[severity] ?? 'advisory' };
  if (report.kind === 'weather') return { weather: [report.title] };
  return null;
}

/**
 * Does a report concern a place, and how strongly. The earthquake's city list decides when the report has one
 * (exact code, a designated city through its wards), else its areas through the city's earthquake area; a tsunami
 * through the place's tsunami region (only a coastal place has one); weather through the city code. A region or
 * city the report lists as clear (grade 'none', no warning in force) still concerns the place, so the app can end
 * what an earlier report started. A cancellation (取消) concerns every place: it names only the event it cancels,
 * and the app ends that event's takeover wherever it runs. 'other' reports concern no place.
 */
export function concernsPlace(report: AlertReport, place: ScreenPlace): PlaceConcern | null {
  if (report.kind === 'other') return null;
  if (report.source === 'cap') return capConcern(report, place);
  if (report.infoType === 'cancelled') return {};
  const concern: PlaceConcern = {};
  if (report.earthquake) {
    const { cities, areas } = report.earthquake;
    if (cities.length > 0) {
      const mine = new Set(earthquakeCitiesOf(place.cityCode));
      const i = strongest(cities.filter((c) => mine.has(c.code)).map((c) => c.intensity));
      if (i) concern.intensity = i;
    } else {
      const area = earthquakeAreaOf(place.cityCode);
      const i = strongest(areas.filter((a) => a.code === area).map((a) => a.intensity));
      if (i) concern.intensity = i;
    }
  }
  if (report.tsunami && place.tsunamiRegion !== null) {
    const region = report.tsunami.regions.find((r) => r.code === place.tsunamiRegion);
    if (region) concern.tsunami = region.grade;
  }
  if (report.weather) {
    const area = report.weather.areas.find((a) => a.code === place.cityCode);
    if (area) concern.weather = area.warnings.filter((w) => w.state !== 'lifted').map((w) => w.name);
  }
  return Object.keys(concern).length > 0 ? concern : null;
}
