/**
 * Sets `key` as the newest entry of `map` and drops the oldest ones beyond `max`: a bounded memory of recent reads
 * (a Map keeps insertion order, so its first key is the one set longest ago).
 */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value as K);
}
