// The package's pure surface: parsing, matching and the code tables, no I/O (the player bundles it). The feed is a
// separate export, '@pagecast/alerts/feed/poller'.
export { parseAtomFeed } from './atom.ts';
export { parseCapAlert } from './cap.ts';
export * from './errors.ts';
export { INTENSITIES, intensityRank } from './intensity.ts';
export { parseJmaReport } from './jma.ts';
export { concernsPlace, pointInPolygon } from './match.ts';
export {
  citiesOf,
  cityByCode,
  earthquakeAreaName,
  epicentreName,
  prefectures,
  tsunamiRegion,
} from './places.ts';
export { parseReport } from './report.ts';
export type * from './types.ts';
