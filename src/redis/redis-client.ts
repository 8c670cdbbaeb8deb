/**
 * The part of an `ioredis` client the stores use: `call(command, ...args)`. A `Redis` or a
 * `Cluster` from ioredis fits; the host creates, configures and closes it. The package never
 * imports `ioredis` itself.
 */
export interface RedisClient {
  /** Sends one command, e.g. `call('HGET', key, field)`; resolves with its reply. */
  call(command: string, ...args: Array<string | number>): Promise<unknown>;
}

/** Each client's loaded scripts, by source: EVALSHA sends 40 characters instead of the script. */
const loaded = new WeakMap<RedisClient, Map<string, string>>();

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/**
 * Runs a Lua script atomically on the server (EVALSHA, loading the script first and again after
 * a server restart or SCRIPT FLUSH).
 */
export async function runScript(client: RedisClient, script: string, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
  let scripts = loaded.get(client);
  if (scripts === undefined) loaded.set(client, (scripts = new Map()));
  for (let attempt = 0; ; attempt += 1) {
    let sha = scripts.get(script);
    if (sha === undefined) {
      sha = String(await client.call('SCRIPT', 'LOAD', script));
      scripts.set(script, sha);
    }
    try {
      return await client.call('EVALSHA', sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!isNoScript(error) || attempt > 0) throw error;
      scripts.delete(script);
    }
  }
}
