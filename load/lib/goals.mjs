// The goals of `npm run load -- screens` (load/README.md), judged from the run's figures for the closing block.

/** The goals, each true or false (null: not measured), from the run's figures. */
export function goals(f) {
  const p95s = Object.entries(f.calls ?? {})
    .filter(([name]) => name !== 'fleet-health')
    .map(([, c]) => c.p95);
  return {
    everyP95Under100ms: p95s.length ? p95s.every((v) => v < 100) : null,
    noError: f.errors ? f.errors.requests === 0 && f.errors.checksFailed === 0 && !f.errors.socketDrops : null,
    takeoverP95Under2s: f.takeover ? f.takeover.shown === f.screens && f.takeover.p95Ms < 2000 : null,
    editP95Under5s: f.edit ? f.edit.shown === f.screens && f.edit.p95Ms < 5000 : null,
    stormAllPlayingWithin60s: f.storm ? f.storm.allS !== null && f.storm.allS <= 60 : null,
    // what each display holds at the gateway after a full collection, resident and live alike (docs/scale.md)
    gatewayAtMost32KiBPerDisplay: f.gatewayHeld
      ? f.gatewayHeld.rssKiB <= 32 && f.gatewayHeld.liveKiB <= 32 && f.gatewayHeld.sockets === f.screens
      : null,
  };
}
