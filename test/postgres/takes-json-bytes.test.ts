import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { PostgresPool } from '../../src/postgres/postgres-pool.js';
import { takesJsonBytes } from '../../src/postgres/takes-json-bytes.js';

describe('takesJsonBytes', () => {
  it("is true for a pg.Pool of pg's own client; false for a wrapper, and for a pool whose client does not write the protocol itself (pg-native)", async () => {
    const plain = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
    expect(takesJsonBytes(plain)).toBe(true);
    expect(takesJsonBytes({ query: plain.query.bind(plain), connect: plain.connect.bind(plain) } as PostgresPool)).toBe(false);
    // What pg.native.Pool is: the same Pool class, with libpq's client, which sends parameters as text.
    function NativeClient() {}
    NativeClient.prototype.query = () => undefined;
    const native = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', Client: NativeClient as unknown as typeof pg.Client });
    expect(takesJsonBytes(native)).toBe(false);
    await Promise.all([plain.end(), native.end()]);
  });
});
