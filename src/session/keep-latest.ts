/**
 * Sets `key` to `value` in `map` as its latest key (a key set again moves to the end), and drops
 * the oldest keys beyond `max`: a map bounded to the keys most recently set.
 */
export function keepLatest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= max) break;
    map.delete(oldest);
  }
}
