import type { DEFAULT_INHERITED_ENV } from './bash-environment.js';

/** The names of the tools {@link workspaceTools} can create, in the order it returns them. */
export type WorkspaceToolName = 'Read' | 'Write' | 'Edit' | 'Glob' | 'Grep' | 'Bash';

/** Options of `workspaceTools`. */
export interface WorkspaceToolsOptions {
  /**
   * The working directory: relative paths resolve against it, Bash runs in it, and it is the
   * first workspace root. Must exist.
   */
  cwd: string;
  /**
   * More directories inside the workspace: paths in them are used without the outside-the-
   * workspace question. Each must exist.
   * @default []
   */
  additionalDirectories?: string[];
  /**
   * Directories the tools may read without asking but not write: a skill's folder, say
   * (`loadSkills(dir)`), whose files the model reads when a skill's instructions refer to them.
   * A write there is asked like one outside the workspace (with `blockedPath`), also when the
   * directory is inside the workspace, in every permission mode but `bypassPermissions`
   * (`acceptEdits` included); an allow rule such as `Edit(**)` does not answer it, a hook or the
   * host does. A workspace root below a read-only directory stays writable. Each must exist.
   * @default []
   */
  readOnlyDirectories?: string[];
  /**
   * Which tools to create.
   * @default ['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash']
   */
  tools?: WorkspaceToolName[];
  /**
   * The most bytes of file content one Read returns; past it, the result ends with a note
   * naming the line to continue from with `offset`.
   * @default 262144 (256 KiB)
   */
  maxReadBytes?: number;
  /**
   * Lines one Read returns when the call gives no `limit`.
   * @default 2000
   */
  maxReadLines?: number;
  /**
   * The most characters of output Bash, Grep and Glob return; longer output keeps its beginning
   * and end with a note of what was left out.
   * @default 30000
   */
  maxOutputChars?: number;
  /**
   * Bash's timeout when the call sets none, in milliseconds. A call may ask for up to 600000.
   * @default 120000
   */
  bashTimeoutMs?: number;
  /**
   * The most time one Grep call may spend matching, in milliseconds. The model's regular
   * expression runs in a worker thread, so a pattern with catastrophic backtracking (`^(a+)+$`)
   * never blocks the event loop; past this deadline (or on interrupt) the worker is terminated
   * and the call ends with an error naming the pattern. Up to 600000.
   * @default 20000
   */
  grepTimeoutMs?: number;
  /**
   * The most directory entries (files, directories, links) one Glob or Grep call visits while
   * walking. Past it the walk stops and the call returns what it found, ending with a note that
   * the result is partial and how to narrow the search, instead of walking a huge tree (a home
   * directory, a mounted drive) until the run is interrupted. Ignored directories (`.git`,
   * `node_modules`, `.gitignore`d) are not entered, so they do not count.
   * @default 200000
   */
  maxSearchEntries?: number;
  /**
   * The most time one Glob or Grep call spends walking, reading and matching, in milliseconds,
   * measured on {@link WorkspaceToolsOptions.now}. Past it the call returns what it found so far,
   * marked partial (as with `maxSearchEntries`). A slow regular expression is bounded separately,
   * by `grepTimeoutMs`.
   * @default 30000
   */
  searchTimeBudgetMs?: number;
  /**
   * The clock `searchTimeBudgetMs` is measured on, in milliseconds. Tests pass a manual clock.
   * @default performance.now
   */
  now?: () => number;
  /**
   * The shell Bash runs commands with (`<shell> -c <command>`). The read-only classifier
   * assumes POSIX/bash syntax.
   * @default '/bin/bash' when it exists, else '/bin/sh'
   */
  shell?: string;
  /**
   * Variables set for Bash commands, as given (a value of `undefined` removes an inherited one),
   * on top of the variables inherited from the host (see `inheritEnv`). They are visible to the
   * model through the commands it runs: put no secret here that it must not read.
   * `GIT_OPTIONAL_LOCKS=0` is added unless set, so read-only git commands do not refresh the index.
   * @default {}
   */
  env?: Record<string, string | undefined>;
  /**
   * More variables of the host's environment (`process.env`, read when the tools are created)
   * that Bash commands inherit, by name or `PREFIX*` pattern (`['NODE_OPTIONS', 'AWS_*']`); `['*']`
   * passes everything (not recommended). Only {@link DEFAULT_INHERITED_ENV} (`PATH`, `HOME`, `USER`,
   * `SHELL`, `LANG`, `LC_*`, `TERM`, `TMPDIR`, …) is inherited otherwise, so secrets such as
   * `ANTHROPIC_API_KEY` never reach a command the model runs.
   * @default []
   */
  inheritEnv?: string[];
  /**
   * File checkpoints for `agent.rewindFiles`: before Write or Edit changes a file, its previous
   * content is kept in the session (tool state: the store and the snapshot carry it). Bounded:
   * `maxBytes` of previous content per session (the oldest checkpoints are dropped first) and
   * `maxFileBytes` per file (a larger file's earlier version is not kept, and rewinding it is
   * refused with that reason). `false` keeps none.
   * @default true (4 MiB per session, 1 MiB per file)
   */
  checkpoints?: boolean | { maxBytes?: number; maxFileBytes?: number };
}
