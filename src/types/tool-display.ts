/**
 * What an approval card shows for one call, in words a person reads: from the tool's `display`,
 * carried by `permission-request` events, `canUseTool`'s context and pending approvals.
 */
export interface ToolDisplay {
  /** A short heading, e.g. `Edit src/cart.js` or `Run npm test`. */
  title: string;
  /** One line in plain words, e.g. `Change 2 lines of src/cart.js`. */
  summary: string;
  /**
   * The detail, for a monospaced block: a unified diff, a command, a query.
   * @default undefined (title and summary say it all)
   */
  body?: string;
  /**
   * How to render `body`: `diff` (a unified diff: colour `+` and `-` lines), `command` (a shell
   * command line), `markdown`, or plain `text`.
   * @default 'text'
   */
  bodyFormat?: 'diff' | 'command' | 'markdown' | 'text';
  /**
   * For a call that changes a file: its path and its content before (`null` for a new file) and
   * after the call, for hosts that render their own side-by-side view.
   * @default undefined
   */
  file?: { path: string; before: string | null; after: string };
  /**
   * For a call that runs a command: the directory it runs in.
   * @default undefined
   */
  cwd?: string;
}
