/**
 * Vitest global setup: says once, in one line, that the fixture tests are skipped (no recordings
 * beside this clone), and fails the run at once where they must be there (CI).
 */
import { assertFixturesPresentWhereRequired, locateFixtures } from './fixtures-dir.js';

export default function announceFixtures(): void {
  const location = locateFixtures();
  assertFixturesPresentWhereRequired(location);
  if (!location.found) console.warn(location.notice);
}
