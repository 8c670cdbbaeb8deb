/**
 * Where the real Claude Code sessions are (read-only; never copied into the repository): the
 * `claude-code-transcripts` folder of the shared fixtures, found by `test/fixtures-dir.ts`
 * (`$AGENT_HARNESS_FIXTURES`, else `../shared/fixtures`). When it is absent, the suites that need
 * it skip, and that helper says so in one line — unless `CI` is set, where a missing corpus fails.
 */
import { fixturePath, hasFixtures, locateFixtures } from '../../fixtures-dir.js';

/** The Claude Code transcripts folder, or undefined when the fixtures are not there. */
export const CLAUDE_CODE_FIXTURES: string | undefined = hasFixtures ? fixturePath('claude-code-transcripts') : undefined;

/** The one line a skipped suite shows. */
export const MISSING_FIXTURES = `skipped: ${locateFixtures().notice}`;
