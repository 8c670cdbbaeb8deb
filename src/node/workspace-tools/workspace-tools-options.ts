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
   * The shell Bash runs commands with (`<shell> -c <command>`). The read-only classifier
   * assumes POSIX/bash syntax.
   * @default '/bin/bash' when it exists, else '/bin/sh'
   */
  shell?: string;
  /**
   * The environment of Bash commands. `GIT_OPTIONAL_LOCKS=0` is added unless set, so read-only
   * git commands do not refresh the index.
   * @default a copy of process.env, taken when the tools are created
   */
  env?: Record<string, string | undefined>;
}
