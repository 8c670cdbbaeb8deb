export { parseShellCommand } from './parse-shell-command.js';
export type {
  ParsedShellCommand,
  ShellAndOr,
  ShellCommandNode,
  ShellList,
  ShellListItem,
  ShellPipeline,
  ShellRedirect,
  ShellSimpleCommand,
  ShellWord,
} from './shell-syntax.js';
