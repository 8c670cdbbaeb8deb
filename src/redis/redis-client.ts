/**
 * The part of an `ioredis` client the stores use: `call(command, ...args)`. A `Redis` or a
 * `Cluster` from ioredis fits; the host creates, configures and closes it. The package never
 * imports `ioredis` itself.
 */
export interface RedisClient {
  /** Sends one command, e.g. `call('HGET', key, field)`; resolves with its reply. */
  call(command: string, ...args: Array<string | number>): Promise<unknown>;
}

/** An argument of {@link runScript}: a Buffer only for a client that {@link takesBuffers}. */
export type ScriptArgument = string | number | Buffer;

/**
 * True for a client of ioredis itself (a `Redis` or a `Cluster`), which sends a Buffer argument
 * as its bytes and then writes the whole command into one buffer. Given strings only, it joins
 * them into one string, and a string of 128 KiB or more is made in V8's large-object space, about
 * ten times slower: an append of a turn's two 100 KB entries of text outside Latin-1 spent a
 * millisecond there. Told by what ioredis has (a boolean `isCluster`, `sendCommand` and
 * `callBuffer`) and by its `call` being its class's own: a client the host wrapped, a look-alike
 * (a test double) or one whose `call` was replaced on the instance may not take Buffers, and
 * gets strings.
 */
export function takesBuffers(client: RedisClient): boolean {
  const candidate = client as RedisClient & { isCluster?: unknown; sendCommand?: unknown; callBuffer?: unknown };
  return (
    typeof candidate.isCluster === 'boolean' &&
    typeof candidate.sendCommand === 'function' &&
    typeof candidate.callBuffer === 'function' &&
    !Object.hasOwn(client, 'call')
  );
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
export async function runScript(client: RedisClient, script: string, keys: readonly string[], args: ReadonlyArray<ScriptArgument>): Promise<unknown> {
  let scripts = loaded.get(client);
  if (scripts === undefined) loaded.set(client, (scripts = new Map()));
  for (let attempt = 0; ; attempt += 1) {
    let sha = scripts.get(script);
    if (sha === undefined) {
      sha = String(await client.call('SCRIPT', 'LOAD', script));
      scripts.set(script, sha);
    }
    try {
      // (Buffers only reach a client that takes them: see ScriptArgument.)
      return await (client.call as (command: string, ...rest: ScriptArgument[]) => Promise<unknown>)('EVALSHA', sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!isNoScript(error) || attempt > 0) throw error;
      scripts.delete(script);
    }
  }
}
