// The package's pure surface: parsing, matching and the code tables. The feed (I/O) is a separate export,
// '@pagecast/alerts/feed/poller', so the player's bundle never pulls it in.
import type {
  AlertReport,
  AtomEntry,
  CityEntry,
  CityInfo,
  PlaceConcern,
  Prefecture,
  ScreenPlace,
  TsunamiRegionInfo,
} from './types.ts';

export * from './errors.ts';
export { INTENSITIES, intensityRank } from './intensity.ts';
export type * from './types.ts';

const notYet = (): never => {
  throw new Error('not implemented');
};

export function parseJmaReport(_xml: string): AlertReport {
  return notYet();
}
export function parseCapAlert(_xml: string): AlertReport {
  return notYet();
}
export function parseAtomFeed(_xml: string): AtomEntry[] {
  return notYet();
}
export function concernsPlace(_report: AlertReport, _place: ScreenPlace): PlaceConcern | null {
  return notYet();
}
export function prefectures(): Prefecture[] {
  return notYet();
}
export function citiesOf(_prefCode: string): CityEntry[] {
  return notYet();
}
export function cityByCode(_code: string): CityInfo | undefined {
  return notYet();
}
export function tsunamiRegion(_code: string): TsunamiRegionInfo | undefined {
  return notYet();
}
