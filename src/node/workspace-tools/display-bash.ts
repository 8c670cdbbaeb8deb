import type { ToolCheckArgs, ToolDisplay } from '../../tools/types.js';
import type { WorkspaceBoundary } from './workspace-boundary.js';

const MAX_TITLE_CHARS = 80;

function shorten(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The approval card of a Bash call: the command as it will run, and the directory it runs in. */
export function displayBash(boundary: WorkspaceBoundary) {
  return ({ input }: ToolCheckArgs<{ command: string; description?: string | undefined; timeout?: number | undefined }>): ToolDisplay => {
    const what = input.description?.trim();
    const lines = input.command.split('\n').length;
    return {
      title: what ? shorten(what, MAX_TITLE_CHARS) : `Run ${shorten(input.command, MAX_TITLE_CHARS - 4)}`,
      summary: `Run ${lines > 1 ? `a ${lines}-line shell script` : 'a shell command'} in ${boundary.cwd}${input.timeout ? `, for at most ${Math.ceil(input.timeout / 1000)} s` : ''}.`,
      body: input.command,
      bodyFormat: 'command',
      cwd: boundary.cwd,
    };
  };
}
