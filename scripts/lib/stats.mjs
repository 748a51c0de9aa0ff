// Shared by the benchmarks: the p-th percentile (0..100) of ascending numbers, nearest rank.
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
