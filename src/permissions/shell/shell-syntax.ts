/**
 * The syntax tree of a shell command line, as {@link parseShellCommand} builds it. Plain data,
 * no behaviour: rules, the read-only classifier, path analysis and the catastrophic-command
 * check all read this one shape.
 */

/** One word of a simple command, after quote removal. */
export interface ShellWord {
  /** The value after quote and escape removal; expansions (`$x`, `$(...)`) stay as written. */
  value: string;
  /** Contains a `$`, a backtick or a process substitution outside single quotes: its value is only known at run time. */
  hasExpansion: boolean;
  /** Contains unquoted `*`, `?`, `[`, `{` or `}`: the shell may turn it into other words. */
  hasGlob: boolean;
  /** Starts with an unquoted `~` (a tilde prefix: `~`, `~/x`, `~user`, `~+`, `~-`); absent when not. */
  tilde?: boolean;
}

/** A redirection such as `2>/dev/null` or `< input.txt`. */
export interface ShellRedirect {
  /** The operator: `<`, `>`, `>>`, `>|`, `<>`, `<&`, `>&`, `&>`, `&>>`, `<<`, `<<-` or `<<<`. */
  operator: string;
  /** The file descriptor written before the operator, e.g. `2` in `2>&1`. */
  fd: string | undefined;
  /** The target word (a file, a descriptor number, or a here-document delimiter). */
  target: ShellWord;
  /** The text of a here-document (`<<`, `<<-`), lines joined with newlines; absent for other operators. */
  body?: string;
}

/** A command with its words and redirections, e.g. `grep -n foo src 2>/dev/null`. */
export interface ShellSimpleCommand {
  words: ShellWord[];
  redirects: ShellRedirect[];
  /** The command's source text (words and redirections, not here-document bodies), whitespace collapsed. */
  text: string;
}

/** One command of a pipeline: a simple command or a compound one. */
export type ShellCommandNode =
  | { type: 'simple'; command: ShellSimpleCommand }
  /** `( list )`: runs in a subshell; `cd` inside does not change the caller's directory. */
  | { type: 'subshell'; body: ShellList; redirects: ShellRedirect[] }
  /** `{ list; }`: runs in the current shell. */
  | { type: 'group'; body: ShellList; redirects: ShellRedirect[] }
  /** `name() body` or `function name body`: defines, runs nothing until called. */
  | { type: 'function'; name: string; body: ShellCommandNode }
  /** A reserved word that starts or continues a compound command (`if`, `then`, `do`, `while`, …) and the command after it. */
  | { type: 'keyword'; keyword: string; body: ShellCommandNode | undefined }
  /** `case word in pattern) list ;; … esac`. */
  | { type: 'case'; subject: ShellWord; items: Array<{ patterns: ShellWord[]; body: ShellList }>; redirects: ShellRedirect[] };

/** Commands joined by `|` or `|&`, optionally negated with `!`. Every command of a pipeline of two or more runs in a subshell. */
export interface ShellPipeline {
  negated: boolean;
  commands: ShellCommandNode[];
}

/** Pipelines joined by `&&` and `||`: `operators[i]` stands between `pipelines[i]` and `pipelines[i + 1]`. */
export interface ShellAndOr {
  pipelines: ShellPipeline[];
  operators: Array<'&&' | '||'>;
}

/** One item of a list, ended by `;`, a newline, or `&` (then it runs in the background, in a subshell). */
export interface ShellListItem {
  andOr: ShellAndOr;
  background: boolean;
}

/** A sequence of and-or lists. */
export type ShellList = ShellListItem[];

/** The result of {@link parseShellCommand}. */
export interface ParsedShellCommand {
  /** The command line as a tree; empty when it could not be parsed. */
  tree: ShellList;
  /** Every simple command, in source order, also those inside subshells, groups, functions and compound commands (not those inside substitutions). */
  commands: ShellSimpleCommand[];
  /** Constructs that were parsed but that the analyses do not model, each in a few words (compound commands, functions, process substitution, background jobs). */
  unsupported: string[];
  /** The inner text of every `$(...)`, `` `...` ``, `<(...)` and `>(...)`, and of `((...))`. */
  substitutions: string[];
  /** Why the text cannot be parsed (an unterminated quote, a dangling operator, …); everything else is then unreliable. */
  error: string | undefined;
}
