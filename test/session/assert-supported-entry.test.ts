import { describe, expect, it } from 'vitest';
import { SessionStoreCorruptError, UnsupportedSchemaVersionError } from 'agent-harness';
import { assertSupportedEntry, isSupportedEntry } from '../../src/session/assert-supported-entry.js';

const where = 'transcript entry 3 of session "s"';
const caught = (value: object): unknown => {
  try {
    assertSupportedEntry(value, 's', where);
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('assertSupportedEntry', () => {
  it('reads the versions this build writes', () => {
    expect(caught({ $schemaVersion: 1 })).toBeUndefined();
    expect(caught({ $schemaVersion: 2 })).toBeUndefined();
  });

  it('refuses a version above the newest with UnsupportedSchemaVersionError, whose cure is an upgrade', () => {
    const error = caught({ $schemaVersion: 3 });
    expect(UnsupportedSchemaVersionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/Upgrade agent-harness/);
  });

  it.each([
    ['no $schemaVersion', {}, /has no \$schemaVersion field/],
    ['a string', { $schemaVersion: '2' }, /has \$schemaVersion "2" \(a string, not a number\)/],
    ['null', { $schemaVersion: null }, /has \$schemaVersion null \(a null, not a number\)/],
    ['0', { $schemaVersion: 0 }, /has \$schemaVersion 0, which no agent-harness writes/],
    ['a fraction', { $schemaVersion: 2.5 }, /has \$schemaVersion 2\.5, which no agent-harness writes/],
  ])('refuses an entry with %s as damaged, naming the session, the entry and the field, with no advice to upgrade', (_name, value, problem) => {
    const error = caught(value);
    expect(SessionStoreCorruptError.isInstance(error)).toBe(true);
    expect(UnsupportedSchemaVersionError.isInstance(error)).toBe(false);
    const message = (error as Error).message;
    expect(message).toContain('session "s"');
    expect(message).toContain(where);
    expect(message).toMatch(problem);
    expect(message).toMatch(/Upgrading agent-harness would not read it/);
    expect((error as SessionStoreCorruptError).sessionId).toBe('s');
  });

  it.each([
    ['version 1', { $schemaVersion: 1 }],
    ['version 2', { $schemaVersion: 2 }],
    ['version 3', { $schemaVersion: 3 }],
    ['no version', {}],
    ['a string version', { $schemaVersion: '2' }],
    ['a fraction', { $schemaVersion: 1.5 }],
    ['null', null],
    ['an array', [{ $schemaVersion: 2 }]],
    ['a number', 2],
    ['a string', '{"$schemaVersion":2}'],
  ])('isSupportedEntry (the check a transcript load makes before naming the entry) agrees with it on %s', (_name, value) => {
    expect(isSupportedEntry(value)).toBe(caught(value as object) === undefined);
  });
});
