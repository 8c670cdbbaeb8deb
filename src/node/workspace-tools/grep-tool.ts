import path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { toolOutput } from '../../tools/tool-output.js';
import type { Tool } from '../../tools/types.js';
import { statSync } from 'node:fs';
import { compileGlob } from '../../permissions/compile-glob.js';
import { readRuleMatcher } from '../../permissions/read-rules.js';
import { globProblem } from './glob-tool.js';
import { RegexSearchStopped, RegexSearchWorker } from './regex-search-worker.js';
import { searchFile, type FileMatches } from './search-file.js';
import { SearchQueue } from './search-queue.js';
import { checkPathPermission } from './path-access.js';
import { resolveSearchRoot } from './search-root.js';
import { truncateEnd } from './truncate-output.js';
import { walkFiles } from './walk-files.js';
import { SearchBudget } from './search-budget.js';
import { shownPath } from './shown-path.js';
import { WalkReport } from './walk-report.js';
import { isWithin } from './workspace-boundary.js';
import type { WorkspaceContext } from './workspace-context.js';
import { ruleAliases } from './rule-aliases.js';
import { pathInputProblem } from './path-input-problem.js';

/** How many files Grep has under way at once (opened, read, matched), in walk order. */
const FILES_SEARCHED_AT_ONCE = 4;
/**
 * Larger files (up to `MAX_GREP_FILE_BYTES`), and those of unknown size, are read only when every
 * earlier one is done: a search holds at most one of them at a time, as when it searched one file
 * at a time.
 */
const MAX_READ_AHEAD_BYTES = 1024 * 1024;

const grepInput = z.strictObject({
  pattern: z.string().min(1).describe('The regular expression to search for (JavaScript syntax), e.g. "function\\s+\\w+" or "TODO".'),
  path: z.string().min(1).optional().describe('The file or directory to search in (default: the working directory).'),
  glob: z.string().min(1).optional().describe('Only search files matching this glob, e.g. "*.ts" (matched against the file name) or "src/**/*.{ts,tsx}".'),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe('"files_with_matches" (default): paths of matching files; "content": matching lines; "count": matches per file.'),
  '-i': z.boolean().optional().describe('Case-insensitive search.'),
  '-n': z.boolean().optional().describe('Show line numbers in "content" mode (default true).'),
  '-A': z.number().int().nonnegative().optional().describe('Lines of context after each match ("content" mode).'),
  '-B': z.number().int().nonnegative().optional().describe('Lines of context before each match ("content" mode).'),
  '-C': z.number().int().nonnegative().optional().describe('Lines of context before and after each match ("content" mode).'),
  head_limit: z.number().int().positive().optional().describe('Return only the first N lines or entries.'),
});

/** Input of the Grep tool. */
export type GrepInput = z.infer<typeof grepInput>;

const HINT = 'Narrow the search with path, glob or head_limit.';

function compile(input: GrepInput): RegExp | string {
  try {
    return new RegExp(input.pattern, input['-i'] ? 'i' : '');
  } catch (error) {
    return `Invalid regular expression ${JSON.stringify(input.pattern)}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function formatContent(results: FileMatches[], input: GrepInput, withContext: boolean): string[] {
  const numbered = input['-n'] ?? true;
  const out: string[] = [];
  for (const result of results) {
    let previous: number | undefined;
    for (const line of result.lines) {
      if (withContext && previous !== undefined && line.number > previous + 1) out.push('--');
      if (withContext && previous === undefined && out.length > 0) out.push('--');
      const separator = line.isMatch ? ':' : '-';
      out.push(numbered ? `${result.display}${separator}${line.number}${separator}${line.text}` : `${result.display}${separator}${line.text}`);
      previous = line.number;
    }
  }
  return out;
}

function isDirectorySync(absolutePath: string): boolean {
  try {
    return statSync(absolutePath).isDirectory();
  } catch {
    return false;
  }
}

/** Creates the Grep tool: a regular-expression search over files, without external binaries. */
export function createGrepTool(context: WorkspaceContext): Tool<GrepInput> {
  const { boundary } = context;
  return defineTool({
    name: 'Grep',
    description: [
      'Searches file contents with a regular expression (JavaScript syntax, line by line).',
      'output_mode "files_with_matches" (default) lists matching files, most recently modified first; "content" shows matching lines (with -n line numbers, -A/-B/-C context); "count" shows matches per file.',
      'Filter files with glob (e.g. "*.ts"). Skips node_modules, .git, files ignored by .gitignore, binary files and symbolic links. A path holding a control character (a newline) is shown JSON-quoted.',
      'Use it instead of grep or rg in Bash.',
    ].join('\n'),
    inputSchema: grepInput,
    kind: 'read',
    readOnly: true,
    concurrencySafe: true,
    ruleTarget: {
      field: 'path',
      kind: 'path',
      aliases: (value) => ruleAliases(context.boundary, value),
      // Read rules hold for what Grep reads: a file it is given, or the files below a folder (skipped).
      reads: (input) => {
        const target = (input as GrepInput).path ?? '.';
        const spellings = [target, ...ruleAliases(context.boundary, target)];
        return isDirectorySync(boundary.lexical(target)) ? { paths: [], directories: spellings, skipsRuleMatches: true } : { paths: spellings };
      },
    },
    validateInput: ({ input }) => {
      const pathProblem = pathInputProblem('path', input.path);
      if (pathProblem) return pathProblem;
      const regexp = compile(input);
      if (typeof regexp === 'string') return regexp;
      return input.glob === undefined ? undefined : globProblem(input.glob);
    },
    checkPermissions: ({ input, toolUseId, agent }) =>
      checkPathPermission({ boundary, toolName: 'Grep', verb: 'searches', input: input.path ?? '.', isDirectory: true, toolUseId, agent }),
    async execute({ input, toolUseId, agent, signal }) {
      const ruleKeepsOut = readRuleMatcher(agent.toolState, toolUseId, boundary.cwd);
      let skipped = 0;
      const regexp = compile(input);
      if (typeof regexp === 'string') return toolOutput(regexp, { isError: true });
      const root = await resolveSearchRoot(boundary, input.path ?? '.', toolUseId, agent);
      if (!root.ok) return toolOutput(root.message, { isError: true });
      if (!root.stat.isFile() && !root.stat.isDirectory()) {
        return toolOutput(`${input.path} is not a regular file or a directory (a pipe, a socket or a device); Grep searches files and directories.`, { isError: true });
      }
      const mode = input.output_mode ?? 'files_with_matches';
      const after = mode === 'content' ? (input['-A'] ?? input['-C'] ?? 0) : 0;
      const before = mode === 'content' ? (input['-B'] ?? input['-C'] ?? 0) : 0;
      const filter = input.glob ? compileGlob(input.glob) : undefined;
      const filterOnName = input.glob !== undefined && !input.glob.includes('/');
      const results: FileMatches[] = [];
      let outputChars = 0;
      let outputLines = 0;
      let stoppedEarly = false;
      const budget = new SearchBudget(context.search);
      const report = new WalkReport();
      // The model's pattern runs in a worker with a deadline: catastrophic backtracking cannot block the event loop.
      const searcher = new RegexSearchWorker({ regexp, timeoutMs: context.grepTimeoutMs, signal });
      const matchingLines = (file: string | readonly string[], longLine: number) => searcher.lineMatches(file, longLine);
      const search = (absolutePath: string, accept: (opened: string) => boolean, beforeRead?: (size: number) => boolean | Promise<boolean>) =>
        searchFile({ absolutePath, accept, matchingLines, before, after, collectLines: mode === 'content', signal, beforeRead });
      /** Takes a file's matches into the results, in walk order; true once more has been found than can be returned (content mode). */
      const take = (found: FileMatches | undefined): boolean => {
        if (found) {
          found.display = shownPath(boundary.display(found.absolutePath));
          results.push(found);
          outputLines += found.lines.length;
          outputChars += found.lines.reduce((sum, line) => sum + line.text.length + found.display.length + 8, found.display.length);
        }
        return mode === 'content' && (outputChars > context.maxOutputChars || (input.head_limit !== undefined && outputLines > input.head_limit));
      };
      // The files being searched, in walk order: a few are opened and read while an earlier one is
      // matched (each file is a handful of trips through the thread pool and one to the worker); a
      // large one is read only in its turn.
      const searching = new SearchQueue<FileMatches | undefined>();
      try {
        if (root.stat.isFile()) {
          take(await search(root.real, (opened) => opened === root.real));
        } else {
          for await (const file of walkFiles({ root: root.real, ignoreRoot: root.ignoreRoot, signal, budget, onUnnameable: report.onUnnameable, onUnreadable: report.onUnreadable })) {
            if (signal.aborted) throw new RegexSearchStopped('aborted');
            if (file.isSymbolicLink) continue;
            if (filter && !filter.test(filterOnName ? path.basename(file.relativePath) : file.relativePath)) continue;
            if (ruleKeepsOut?.(file.absolutePath, ruleAliases(boundary, file.absolutePath))) {
              skipped++;
              continue;
            }
            searching.add((waitForTurn) =>
              search(file.absolutePath, (opened) => isWithin(root.real, opened), (size) => (size > 0 && size <= MAX_READ_AHEAD_BYTES) || waitForTurn()),
            );
            if (searching.size < FILES_SEARCHED_AT_ONCE) continue;
            // In content mode, stop once more has been found than can be returned.
            if (take(await searching.next())) {
              stoppedEarly = true;
              break;
            }
          }
          while (!stoppedEarly && searching.size > 0) stoppedEarly = take(await searching.next());
        }
      } catch (error) {
        if (signal.aborted || (error instanceof RegexSearchStopped && error.reason === 'aborted')) return toolOutput('The search was interrupted.', { isError: true });
        if (!(error instanceof RegexSearchStopped)) throw error;
        return toolOutput(
          `The search was stopped after ${context.grepTimeoutMs} ms: the regular expression ${JSON.stringify(input.pattern)} takes too long (nested quantifiers such as (a+)+ backtrack exponentially). Simplify the pattern, or narrow the search with path or glob.`,
          { isError: true },
        );
      } finally {
        // Searches still under way (the search stopped early, or failed) end first: no file is left
        // open, and the worker goes back to the pool rather than being terminated mid-question.
        await searching.close();
        await searcher.close();
      }
      if (signal.aborted) return toolOutput('The search was interrupted.', { isError: true });
      const skippedNote = skipped === 0 ? '' : `\n\n[${skipped} file${skipped === 1 ? ' was' : 's were'} not searched: the session's Read rules keep ${skipped === 1 ? 'it' : 'them'} from being read.]`;
      // A walk cut short must not claim that nothing matches in the part it never reached.
      const partialNote = report.note() + (budget.exhausted ? `\n\n${budget.note(input.path ?? '.', `${HINT.slice(0, -1)} (e.g. path: "src", glob: "*.ts").`)}` : '');
      if (results.length === 0) {
        const none = mode === 'files_with_matches' ? 'No files found' : 'No matches found';
        return (budget.exhausted ? `${none} in the part searched.` : none) + skippedNote + partialNote;
      }
      let lines: string[];
      let header = '';
      if (mode === 'files_with_matches') {
        results.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.display < b.display ? -1 : 1));
        lines = results.map((result) => result.display);
        header = `Found ${results.length} file${results.length === 1 ? '' : 's'}\n`;
      } else if (mode === 'count') {
        lines = results.map((result) => `${result.display}:${result.matchCount}`);
        const total = results.reduce((sum, result) => sum + result.matchCount, 0);
        header = `Found ${total} matching line${total === 1 ? '' : 's'} in ${results.length} file${results.length === 1 ? '' : 's'}\n`;
      } else {
        lines = formatContent(results, input, before > 0 || after > 0);
      }
      let limitNote = '';
      if (input.head_limit !== undefined && lines.length > input.head_limit) {
        const total = stoppedEarly ? `more than ${input.head_limit}` : String(lines.length);
        limitNote = `\n\n[Showing the first ${input.head_limit} of ${total} ${mode === 'content' ? 'lines' : 'entries'}.]`;
        lines = lines.slice(0, input.head_limit);
      }
      return truncateEnd(header + lines.join('\n') + limitNote + skippedNote, context.maxOutputChars, HINT) + partialNote;
    },
  });
}
