// Where a screen is, for disaster alerts: a place is valid when its city is in JMA's code tables and its coast (when
// it has one) is one of that city's tsunami forecast regions; a screen without a place of its own is where its first
// group (the member's order) with one is.
import { cityByCode } from '@pagecast/alerts';
import type { ScreenPlace } from '@pagecast/contracts';

/** Why a place is refused ('city': an unknown city code; 'coast': a coast that is not the city's), or null. */
export function placeProblem(place: NonNullable<ScreenPlace>): 'city' | 'coast' | null {
  const city = cityByCode(place.cityCode);
  if (!city) return 'city';
  if (place.tsunamiRegion !== null && !city.tsunamiRegions.includes(place.tsunamiRegion)) return 'coast';
  return null;
}

/** The place that applies: the screen's own, else the first of its groups (already in precedence order) with one. */
export function placeOf(
  own: ScreenPlace | undefined,
  groups: ReadonlyArray<{ place?: ScreenPlace }>,
): NonNullable<ScreenPlace> | null {
  if (own) return own;
  return groups.find((g) => g.place)?.place ?? null;
}
