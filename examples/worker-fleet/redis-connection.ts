/** BullMQ's connection options for a Redis URL (default: the local server). */
export function redisConnection(url = 'redis://127.0.0.1:6379'): { host: string; port: number; db?: number } {
  const parsed = new URL(url);
  const db = Number(parsed.pathname.slice(1));
  return { host: parsed.hostname, port: Number(parsed.port || 6379), ...(db ? { db } : {}) };
}
