// Shared by the benchmarks: the p-th percentile (0..100) of ascending numbers, nearest rank.
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A closed-loop run's figures: request count, latency percentiles (ms) and throughput over `seconds`. */
export function summarize(times, concurrency, seconds) {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    concurrency,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    rps: sorted.length / seconds,
  };
}
