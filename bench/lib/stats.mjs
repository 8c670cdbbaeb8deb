/** Small statistics helpers (numbers in, numbers out). */

export function quantile(values, q) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

export const median = (values) => quantile(values, 0.5);

export const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Differences between consecutive timestamps. */
export function gaps(timestamps) {
  const result = [];
  for (let index = 1; index < timestamps.length; index++) result.push(timestamps[index] - timestamps[index - 1]);
  return result;
}

/** Collects garbage thoroughly and returns `heapUsed` in bytes (needs node --expose-gc). */
export async function settledHeap() {
  for (let round = 0; round < 3; round++) {
    // Let pending promise callbacks and timers finish so nothing transient is still reachable.
    await new Promise((resolve) => setImmediate(resolve));
    global.gc();
  }
  return process.memoryUsage().heapUsed;
}
