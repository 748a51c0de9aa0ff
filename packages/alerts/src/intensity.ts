import type { Intensity } from './types.ts';

/** JMA's scale in order: 5 and 6 are split into lower (-) and upper (+), so the ranks run 1..9, not 1..7. */
export const INTENSITIES: readonly Intensity[] = ['1', '2', '3', '4', '5-', '5+', '6-', '6+', '7'];

export function intensityRank(i: Intensity): number {
  const rank = INTENSITIES.indexOf(i);
  if (rank < 0) throw new RangeError(`not a JMA intensity: ${String(i)}`);
  return rank + 1;
}
