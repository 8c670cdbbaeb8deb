import pg from 'pg';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PostgresPool, PostgresQueryResult } from '../../src/postgres/postgres-pool.js';

/** A pool that records what each call was given and answers as `answer` says. */
function recordingPool(answer: (call: unknown) => PostgresQueryResult | Error = () => ({ rows: [], rowCount: 0 })) {
  const calls: unknown[] = [];
  const pool: PostgresPool = {
    query: (async (first: unknown, values?: unknown[]) => {
      const call = typeof first === 'string' ? { text: first, values } : first;
      calls.push(call);
      const result = answer(call);
      if (result instanceof Error) throw result;
      return result;
    }) as PostgresPool['query'],
    connect: () => Promise.reject(new Error('not used')),
  };
  return { pool, calls };
}

const withCode = (code: string) => Object.assign(new Error(`failed with ${code}`), { code });

/** The module, loaded afresh for each test: the statement names are the process's. */
let prepared: typeof import('../../src/postgres/prepared-pool.js');
beforeEach(async () => {
  vi.resetModules();
  prepared = await import('../../src/postgres/prepared-pool.js');
});

describe('isPlainPgPool', () => {
  it('is true for a pg.Pool as pg makes it, false for a wrapper or a pool whose query was replaced', async () => {
    const plain = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
    expect(prepared.isPlainPgPool(plain)).toBe(true);
    expect(prepared.isPlainPgPool({ query: plain.query.bind(plain), connect: plain.connect.bind(plain) } as PostgresPool)).toBe(false);
    const replaced = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
    const query = replaced.query.bind(replaced);
    replaced.query = ((text: string, values?: unknown[]) => query(text, values)) as typeof replaced.query;
    expect(prepared.isPlainPgPool(replaced)).toBe(false);
    await Promise.all([plain.end(), replaced.end()]);
  });
});

describe('preparedPool', () => {
  it('sends one name per text, the same name for the same text', async () => {
    const { pool, calls } = recordingPool();
    const named = prepared.preparedPool(pool);
    await named.query('SELECT $1::int AS a', [1]);
    await named.query('SELECT $1::int AS b', [2]);
    await named.query('SELECT $1::int AS a', [3]);
    const [a, b, again] = calls as Array<{ name?: string; text: string; values: unknown[] }>;
    expect(a).toEqual({ name: expect.stringMatching(/^agent_harness_[0-9a-f]{16}$/), text: 'SELECT $1::int AS a', values: [1] });
    expect(b!.name).not.toBe(a!.name);
    expect(again).toEqual({ ...a, values: [3] });
  });

  it('names a text by a hash of it, so another copy of the library in the process (its other build, another version) gives it the same name and other texts other names', async () => {
    const first = recordingPool();
    await prepared.preparedPool(first.pool).query('SELECT 1 AS a', []);
    await prepared.preparedPool(first.pool).query('SELECT 1 AS b', []);
    vi.resetModules();
    const copy = await import('../../src/postgres/prepared-pool.js');
    expect(copy).not.toBe(prepared);
    const second = recordingPool();
    // The copy names another text first: a count would give it the first copy's first name.
    await copy.preparedPool(second.pool).query('SELECT 1 AS b', []);
    await copy.preparedPool(second.pool).query('SELECT 1 AS a', []);
    const [a, b] = first.calls as Array<{ name: string }>;
    const [bAgain, aAgain] = second.calls as Array<{ name: string }>;
    expect(aAgain!.name).toBe(a!.name);
    expect(bAgain!.name).toBe(b!.name);
    expect(a!.name).not.toBe(b!.name);
  });

  it("on pg's refusal of a name its connection holds for another text (before sending it) sends the statement again unnamed, and every later one unnamed", async () => {
    let failed = false;
    const { pool, calls } = recordingPool((call) => {
      if ((call as { name?: string }).name !== undefined && !failed) {
        failed = true;
        return new Error(`Prepared statements must be unique - '${(call as { name: string }).name}' was used for a different statement`);
      }
      return { rows: [{ ok: true }], rowCount: 1 };
    });
    const named = prepared.preparedPool(pool);
    expect((await named.query('SELECT true AS ok', [])).rows).toEqual([{ ok: true }]);
    await named.query('SELECT false AS ok', []);
    expect(calls).toEqual([expect.objectContaining({ name: expect.any(String), text: 'SELECT true AS ok' }), { text: 'SELECT true AS ok', values: [] }, { text: 'SELECT false AS ok', values: [] }]);
  });

  it('on a name the connection lost (26000) or holds already (42P05) sends the statement again unnamed, and every later one unnamed', async () => {
    for (const code of ['26000', '42P05']) {
      let failed = false;
      const { pool, calls } = recordingPool((call) => {
        if ((call as { name?: string }).name !== undefined && !failed) {
          failed = true;
          return withCode(code);
        }
        return { rows: [{ ok: true }], rowCount: 1 };
      });
      const named = prepared.preparedPool(pool);
      expect((await named.query('SELECT true AS ok', [])).rows).toEqual([{ ok: true }]);
      await named.query('SELECT false AS ok', []);
      expect(calls).toEqual([expect.objectContaining({ name: expect.any(String), text: 'SELECT true AS ok' }), { text: 'SELECT true AS ok', values: [] }, { text: 'SELECT false AS ok', values: [] }]);
    }
  });

  it('sends a statement whose cached plan changed result type (0A000) again unnamed, and names the next ones still', async () => {
    let failed = false;
    const { pool, calls } = recordingPool((call) => {
      if ((call as { name?: string }).name !== undefined && !failed) {
        failed = true;
        return Object.assign(new Error('cached plan must not change result type'), { code: '0A000' });
      }
      return { rows: [], rowCount: 0 };
    });
    const named = prepared.preparedPool(pool);
    await named.query('SELECT session_id FROM t', []);
    await named.query('SELECT session_id FROM t', []);
    expect(calls).toEqual([expect.objectContaining({ name: expect.any(String) }), { text: 'SELECT session_id FROM t', values: [] }, expect.objectContaining({ name: expect.any(String) })]);
    // Another refusal with that code is passed on.
    const other = recordingPool(() => Object.assign(new Error('some feature'), { code: '0A000' }));
    await expect(prepared.preparedPool(other.pool).query('SELECT 1', [])).rejects.toThrow('some feature');
    expect(other.calls).toHaveLength(1);
  });

  it('passes any other error on without sending the statement again', async () => {
    const { pool, calls } = recordingPool(() => withCode('23505'));
    await expect(prepared.preparedPool(pool).query('INSERT INTO t VALUES ($1)', [1])).rejects.toThrow('failed with 23505');
    expect(calls).toHaveLength(1);
  });

  it('names at most 256 texts in a process: a text built with a value in it would leave a statement per call on every connection', async () => {
    const { pool, calls } = recordingPool();
    const named = prepared.preparedPool(pool);
    for (let index = 0; index < 300; index += 1) await named.query(`SELECT ${index}`, []);
    expect((calls as Array<{ name?: string }>).filter((call) => call.name !== undefined)).toHaveLength(256);
    expect(calls.at(-1)).toEqual({ text: 'SELECT 299', values: [] });
  });
});
