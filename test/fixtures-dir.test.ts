import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertFixturesPresentWhereRequired, FIXTURES_VARIABLE, fixturesRequired, locateFixtures } from './fixtures-dir.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-harness-fixtures-dir-'));
const file = join(dir, 'a-file');
writeFileSync(file, '');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('locateFixtures', () => {
  it('takes the folder from AGENT_HARNESS_FIXTURES', () => {
    const location = locateFixtures({ [FIXTURES_VARIABLE]: dir });
    expect(location).toMatchObject({ path: resolve(dir), source: 'variable', found: true });
    expect(() => assertFixturesPresentWhereRequired(location, { CI: 'true' })).not.toThrow();
  });

  it('looks beside the repository without the variable (an empty one counts as unset)', () => {
    for (const environment of [{}, { [FIXTURES_VARIABLE]: '' }]) {
      const location = locateFixtures(environment);
      expect(location.source).toBe('beside-repository');
      expect(location.path).toBe(resolve(import.meta.dirname, '../../shared/fixtures'));
    }
  });

  it('a missing folder beside the repository skips with one line naming the folder and the variable, and fails under CI', () => {
    const location = { ...locateFixtures({}), found: false };
    expect(location.notice.split('\n')).toHaveLength(1);
    expect(location.notice).toContain(location.path);
    expect(location.notice).toContain(FIXTURES_VARIABLE);
    expect(fixturesRequired(location, {})).toBe(false);
    expect(() => assertFixturesPresentWhereRequired(location, {})).not.toThrow();
    for (const ci of ['true', '1', 'yes']) {
      expect(() => assertFixturesPresentWhereRequired(location, { CI: ci })).toThrow(/CI is set/);
    }
    for (const ci of ['', 'false', '0']) expect(fixturesRequired(location, { CI: ci })).toBe(false);
  });

  it('a variable naming something that is not a folder fails, in CI or not', () => {
    for (const target of [join(dir, 'missing'), file]) {
      const location = locateFixtures({ [FIXTURES_VARIABLE]: target });
      expect(location.found).toBe(false);
      expect(() => assertFixturesPresentWhereRequired(location, {})).toThrow(`${FIXTURES_VARIABLE}=${target} is not a folder`);
    }
  });
});
