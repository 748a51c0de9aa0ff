import type { ScreenPlace } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import { placeProblem } from '../domain';

/** A place the code tables do not know is refused before anything is written. */
export function checkPlace(place: ScreenPlace): void {
  if (place === null) return;
  const problem = placeProblem(place);
  if (problem) throw new AppError('ALERT_PLACE_UNKNOWN', { details: { ...place, problem } });
}
