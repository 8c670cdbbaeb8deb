import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { OFFLINE_STEP_NAMES, type OfflineStepName } from './offline-script.js';

/** What the command line asked for. */
export interface CliOptions {
  /** The session id, also the name of the default work directory. */
  session: string;
  /** Where the sample project is copied and the agent works (absolute). */
  workdir: string;
  /** Approve every question without asking. */
  yes: boolean;
  /** Throw away the session in the work directory and copy the sample project again. */
  fresh: boolean;
  /** Offline only: the scripted model waits at this step until Ctrl-C. */
  pauseAt: OfflineStepName | undefined;
}

export const USAGE = `Usage: node --import tsx examples/coding-agent/main.ts [options]

  --workdir <dir>     where the sample project is copied and edited
                      (default: <os tmpdir>/agent-harness-<session>)
  --session <name>    the session id (default: coding-agent)
  --yes               approve the plan and every tool call without asking
  --fresh             start over: drop the stored session and copy the sample project again
  --pause-at <step>   offline only: the scripted model stops to "think" at this step until you
                      press Ctrl-C (steps: ${OFFLINE_STEP_NAMES.join(', ')})
  --help              show this help

Run it again with the same --workdir (or --session) to resume after Ctrl-C.
Set ANTHROPIC_API_KEY to use the real API (ANTHROPIC_MODEL picks the model).`;

/** Reads the command line; prints the usage and exits on --help or a bad option. */
export function readCliOptions(argv: string[]): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        workdir: { type: 'string' },
        session: { type: 'string', default: 'coding-agent' },
        yes: { type: 'boolean', short: 'y', default: false },
        fresh: { type: 'boolean', default: false },
        'pause-at': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const { values } = parsed;
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const session = values.session;
  // The session id names a file in the session store and the default folder.
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(session)) fail(`--session "${session}" must be letters, digits, "_" and "-".`);
  const pauseAt = values['pause-at'];
  if (pauseAt !== undefined && !OFFLINE_STEP_NAMES.includes(pauseAt as OfflineStepName)) {
    fail(`--pause-at "${pauseAt}" is not a step; use one of: ${OFFLINE_STEP_NAMES.join(', ')}.`);
  }
  return {
    session,
    workdir: resolve(values.workdir ?? join(tmpdir(), `agent-harness-${session}`)),
    yes: values.yes,
    fresh: values.fresh,
    pauseAt: pauseAt as OfflineStepName | undefined,
  };
}

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}
