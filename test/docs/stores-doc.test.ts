// docs/stores.md shows the PostgreSQL migration and the Redis key layout: they must be the ones
// the code uses.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { postgresMigrationSql } from 'agent-harness/postgres';
import { postgresConcurrentIndexSql } from '../../src/postgres/postgres-migrations.js';
import { redisKeys } from '../../src/redis/redis-keys.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const doc = readFileSync(join(root, 'docs/stores.md'), 'utf8');
const between = (marker: string) => doc.split(`<!-- ${marker} -->`)[1]!.split(`<!-- /${marker} -->`)[0]!;

describe('docs/stores.md', () => {
  it('shows the migration SQL the PostgreSQL stores run', () => {
    const block = between('postgres-migration-sql').match(/```sql\n([\s\S]*?)```/)![1];
    expect(block).toBe(postgresMigrationSql());
  });

  it('shows the SQL that builds the indexes of an upgrade concurrently, as migratePostgres builds them', () => {
    const block = between('postgres-concurrent-index-sql').match(/```sql\n([\s\S]*?)```/)![1];
    expect(block).toBe(postgresConcurrentIndexSql());
    expect(block).toContain('CREATE INDEX CONCURRENTLY');
  });

  it('lists every Redis key the stores use, and no other', () => {
    const documented = [...between('redis-keys').matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]).sort();
    const keys = redisKeys('<prefix>');
    const used = [keys.layout, keys.sessions, keys.waiting, keys.waitingRule, keys.plans, keys.session('<id>'), keys.entries('<id>'), keys.ids('<id>'), keys.checkpoints('<id>')].sort();
    expect(documented).toEqual(used);
  });
});
