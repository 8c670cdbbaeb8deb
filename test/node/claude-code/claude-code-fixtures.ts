/**
 * Where the real Claude Code sessions are (read-only; never copied into the repository).
 *
 * A tiny local stand-in for the shared fixture helper another engineer is adding to `test/`:
 * the folder is `$AGENT_HARNESS_FIXTURES/claude-code-transcripts` when the variable is set, else
 * `../shared/fixtures/claude-code-transcripts` beside the repository. When it is absent, the
 * suites that need it skip with one line saying so — unless `CI` is set, where a missing corpus
 * is a failure, so CI can never skip them silently.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const fixturesRoot = process.env.AGENT_HARNESS_FIXTURES
  ? resolve(process.env.AGENT_HARNESS_FIXTURES)
  : resolve(repositoryRoot, '../shared/fixtures');

/** The Claude Code transcripts folder, or undefined when it is not there. */
export const CLAUDE_CODE_FIXTURES: string | undefined = (() => {
  const folder = join(fixturesRoot, 'claude-code-transcripts');
  if (existsSync(folder)) return folder;
  if (process.env.CI) {
    throw new Error(`The Claude Code fixtures are missing at ${folder}; CI must run them (set AGENT_HARNESS_FIXTURES to the fixtures folder).`);
  }
  return undefined;
})();

/** The one line a skipped suite shows. */
export const MISSING_FIXTURES = `skipped: no Claude Code fixtures at ${join(fixturesRoot, 'claude-code-transcripts')} (set AGENT_HARNESS_FIXTURES to the folder holding claude-code-transcripts/)`;
