import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { toolOutput } from '../../tools/tool-output.js';
import type { Tool } from '../../tools/types.js';
import { compileGlob, splitGlobBase } from '../../permissions/compile-glob.js';
import { checkPathPermission } from './path-access.js';
import { resolveSearchRoot } from './search-root.js';
import { truncateEnd } from './truncate-output.js';
import { walkFiles } from './walk-files.js';
import { SearchBudget } from './search-budget.js';
import { shownPath } from './shown-path.js';
import { WalkReport } from './walk-report.js';
import type { WorkspaceContext } from './workspace-context.js';
import { ruleAliases } from './rule-aliases.js';
import { pathInputProblem } from './path-input-problem.js';

/** Most paths one Glob call returns. */
const MAX_GLOB_RESULTS = 100;
const NARROW = 'Use a more specific pattern or path.';
const INTERRUPTED = 'The search was interrupted.';

const globInput = z.strictObject({
  pattern: z.string().min(1).describe('The glob to match file paths against, e.g. "**/*.ts" or "src/**/*.{js,jsx}".'),
  path: z.string().min(1).optional().describe('The directory to search in (default: the working directory).'),
});

/** Input of the Glob tool. */
export type GlobInput = z.infer<typeof globInput>;

/** The directory a Glob call searches, as a model-style path, and the pattern below it. */
export function globSearchTarget(input: GlobInput): { directory: string; pattern: string } {
  const { base, pattern } = splitGlobBase(input.pattern);
  const directory = path.isAbsolute(base) ? base : path.join(input.path ?? '.', base);
  return { directory, pattern };
}

/** Why a glob cannot be used (too many `{a,b}` alternatives), or `undefined`. */
export function globProblem(glob: string): string | undefined {
  try {
    compileGlob(glob);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Creates the Glob tool: file paths matching a glob, most recently modified first. */
export function createGlobTool(context: WorkspaceContext): Tool<GlobInput> {
  const { boundary } = context;
  return defineTool({
    name: 'Glob',
    description: [
      'Finds files by name with a glob pattern ("**/*.ts", "src/**/*.{ts,tsx}", "*.md"): `*` and `?` stay within a directory, `**` spans directories, `{a,b}` lists alternatives.',
      `Returns matching file paths, most recently modified first, at most ${MAX_GLOB_RESULTS}.`,
      'Skips node_modules, .git and files ignored by .gitignore; symbolic links to directories are not followed. A path holding a control character (a newline) is shown JSON-quoted.',
      'Use Grep to search file contents.',
    ].join('\n'),
    inputSchema: globInput,
    kind: 'read',
    readOnly: true,
    concurrencySafe: true,
    ruleTarget: { field: 'path', kind: 'path', aliases: (value) => ruleAliases(context.boundary, value) },
    validateInput: ({ input }) => pathInputProblem('path', input.path) ?? pathInputProblem('pattern', input.pattern) ?? globProblem(input.pattern),
    checkPermissions: ({ input, toolUseId, agent }) =>
      checkPathPermission({ boundary, toolName: 'Glob', verb: 'searches', input: globSearchTarget(input).directory, isDirectory: true, toolUseId, agent }),
    async execute({ input, toolUseId, agent, signal }) {
      const target = globSearchTarget(input);
      const root = await resolveSearchRoot(boundary, target.directory, toolUseId, agent);
      if (!root.ok) return toolOutput(root.message, { isError: true });
      if (!root.stat.isDirectory()) return toolOutput(`${target.directory} is not a directory.`, { isError: true });
      const matcher = compileGlob(target.pattern);
      const budget = new SearchBudget(context.search);
      const matches: Array<{ absolutePath: string; mtimeMs: number }> = [];
      const report = new WalkReport();
      try {
        for await (const file of walkFiles({ root: root.real, ignoreRoot: root.ignoreRoot, signal, budget, onUnnameable: report.onUnnameable, onUnreadable: report.onUnreadable })) {
          if (!matcher.test(file.relativePath)) continue;
          const stat = await fs.lstat(file.absolutePath).catch(() => undefined);
          matches.push({ absolutePath: file.absolutePath, mtimeMs: stat?.mtimeMs ?? 0 });
        }
      } catch (error) {
        // As Grep, Read and Bash answer it: an interrupted search is a result the model reads, not a tool failure.
        if (signal.aborted) return toolOutput(INTERRUPTED, { isError: true });
        throw error;
      }
      if (signal.aborted) return toolOutput(INTERRUPTED, { isError: true });
      // A walk cut short must not claim that nothing matches in the part it never reached.
      const partial = report.note() + (budget.exhausted ? `\n\n${budget.note(target.directory, `${NARROW} (e.g. path: "src").`)}` : '');
      if (matches.length === 0) return (budget.exhausted ? 'No files found in the part searched.' : 'No files found') + partial;
      matches.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.absolutePath < b.absolutePath ? -1 : 1));
      const shown = matches.slice(0, MAX_GLOB_RESULTS).map((match) => shownPath(boundary.display(match.absolutePath)));
      let text = shown.join('\n');
      if (matches.length > MAX_GLOB_RESULTS) {
        text += `\n\n[Showing the ${MAX_GLOB_RESULTS} most recently modified of ${matches.length} matches. ${NARROW}]`;
      }
      return truncateEnd(text, context.maxOutputChars, NARROW) + partial;
    },
  });
}
