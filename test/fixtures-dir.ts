/**
 * Where the real recordings are: `$AGENT_HARNESS_FIXTURES`, else `../shared/fixtures` beside the
 * repository. They may not be copied into the repository, so a clone on its own has none: the
 * tests that read them skip (one line says so, from `test/fixtures-notice.ts`), except under `CI`,
 * where a missing corpus is a failure, so CI can never skip them silently.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The environment variable that points at the fixtures folder. */
export const FIXTURES_VARIABLE = 'AGENT_HARNESS_FIXTURES';

const repositoryRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Where the fixtures are looked for, and whether they are there. */
export interface FixturesLocation {
  /** The folder looked at. */
  readonly path: string;
  /** Where the path came from. */
  readonly source: 'variable' | 'beside-repository';
  /** The folder exists. */
  readonly found: boolean;
  /** One line for a person: the tests that need the recordings are skipped, and how to run them. */
  readonly notice: string;
  /** One line for a person, where a missing corpus fails the run: what is missing and how to provide it. */
  readonly failure: string;
}

/** Finds the fixtures folder from an environment (`process.env` by default). */
export function locateFixtures(environment: Readonly<Record<string, string | undefined>> = process.env): FixturesLocation {
  const variable = environment[FIXTURES_VARIABLE];
  const fromVariable = variable !== undefined && variable !== '';
  const path = fromVariable ? resolve(variable) : resolve(repositoryRoot, '../shared/fixtures');
  const found = existsSync(path) && statSync(path).isDirectory();
  const notice = fromVariable
    ? `Fixture tests cannot run: ${FIXTURES_VARIABLE}=${variable} is not a folder (${path}).`
    : `Fixture tests skipped: no recordings at ${path} (../shared/fixtures beside the repository); set ${FIXTURES_VARIABLE} to the fixtures folder to run them.`;
  const failure = fromVariable
    ? `${notice} Point it at the fixtures folder, or unset it.`
    : `Fixture tests cannot run: no recordings at ${path} (../shared/fixtures beside the repository), and CI is set, where they must run. Put the fixtures folder there, or set ${FIXTURES_VARIABLE} to it.`;
  return { path, source: fromVariable ? 'variable' : 'beside-repository', found, notice, failure };
}

/** Whether a missing fixtures folder fails the run instead of skipping: under CI, or when the variable names a folder that is not there. */
export function fixturesRequired(location: FixturesLocation, environment: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const ci = environment.CI;
  return location.source === 'variable' || (ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0');
}

const location = locateFixtures();
/** Throws when the fixtures are missing where a missing corpus is a failure. */
export function assertFixturesPresentWhereRequired(found: FixturesLocation, environment: Readonly<Record<string, string | undefined>> = process.env): void {
  if (!found.found && fixturesRequired(found, environment)) throw new Error(found.failure);
}

assertFixturesPresentWhereRequired(location);

/** True when the recordings are there; use with `describe.skipIf(!hasFixtures)` or `it.skipIf(!hasFixtures)`. */
export const hasFixtures = location.found;

/**
 * A path inside the fixtures folder, e.g. `fixturePath('anthropic-sse', 'official-sdk')`. Call it
 * only from tests that skip without fixtures (it throws, naming the folder, when they are absent).
 */
export function fixturePath(...parts: string[]): string {
  if (!location.found) throw new Error(location.notice);
  return join(location.path, ...parts);
}
