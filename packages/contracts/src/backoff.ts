// One rule for every wait after a failure, in the displays and in the services: the wait doubles with each failure
// in a row, from `firstMs` up to `maxMs`, and is drawn between half and all of that ceiling ("equal jitter"). Never
// zero, so a crowd that failed together (a fleet rebooting, instances that lost the same server) spreads out
// instead of coming back in step, and never longer than `maxMs`, so a person waiting sees it try again.

/** The wait after `failures` failures in a row (1 for the first): `firstMs · 2^(failures-1)`, capped at `maxMs`, jittered. */
export function backoffDelay(
  failures: number,
  firstMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxMs, firstMs * 2 ** Math.min(Math.max(failures, 1) - 1, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
