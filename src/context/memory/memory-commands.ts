import { parseMemoryPath, type MemoryPath } from './memory-path.js';
import type { MemoryStore } from './memory-store.js';

/** One command of the memory tool, in the Messages API's input shape. */
export type MemoryCommand =
  | { command: 'view'; path: string; view_range?: [number, number] | number[] }
  | { command: 'create'; path: string; file_text: string }
  | { command: 'str_replace'; path: string; old_str: string; new_str: string }
  | { command: 'insert'; path: string; insert_line: number; insert_text: string }
  | { command: 'delete'; path: string }
  | { command: 'rename'; old_path: string; new_path: string };

/** A command the model should see as failed, with the reason. */
export class MemoryCommandFailure {
  constructor(readonly message: string) {}
}

/** Limits of the memory tool. */
export interface MemoryLimits {
  /** The largest file, in characters. */
  maxFileChars: number;
}

const lineNumberWidth = 6;
const numbered = (lines: string[], first: number) => lines.map((line, index) => `${String(first + index).padStart(lineNumberWidth, ' ')}\t${line}`).join('\n');

function checked(path: unknown): MemoryPath {
  const parsed = parseMemoryPath(path);
  if ('problem' in parsed) throw new MemoryCommandFailure(parsed.problem);
  return parsed;
}

async function readExisting(store: MemoryStore, path: MemoryPath): Promise<string> {
  const info = await store.stat(path.relative);
  if (!info) throw new MemoryCommandFailure(`The path ${path.display} does not exist. Please provide a valid path.`);
  const text = info.kind === 'file' ? await store.readFile(path.relative) : undefined;
  if (text === undefined) throw new MemoryCommandFailure(`The path ${path.display} is not a file.`);
  return text;
}

function tooLong(path: MemoryPath, length: number, limits: MemoryLimits): void {
  if (length > limits.maxFileChars) {
    throw new MemoryCommandFailure(`The file ${path.display} would hold ${length} characters, more than the limit of ${limits.maxFileChars}. Keep memory files short: split or condense the notes.`);
  }
}

/**
 * Runs one memory command against a store, with the answers the Messages API's memory tool
 * documents (directory listings two levels deep, files with line numbers, the edit snippets).
 * @throws MemoryCommandFailure with the message for the model when the command cannot be done.
 */
export async function runMemoryCommand(store: MemoryStore, input: MemoryCommand, limits: MemoryLimits): Promise<string> {
  switch (input.command) {
    case 'view':
      return view(store, checked(input.path), input.view_range);
    case 'create': {
      const path = checked(input.path);
      if (path.relative === '') throw new MemoryCommandFailure(`${path.display} is the memory directory itself; create a file inside it, e.g. ${path.display}/notes.md.`);
      tooLong(path, input.file_text.length, limits);
      const outcome = await store.writeFile(path.relative, input.file_text, { exclusive: true });
      if (outcome === 'exists') throw new MemoryCommandFailure(`File ${path.display} already exists`);
      if (outcome === 'not-a-directory') throw new MemoryCommandFailure(`Cannot create ${path.display}: a name on its way is a file, not a directory.`);
      return `File created successfully at: ${path.display}`;
    }
    case 'str_replace': {
      const path = checked(input.path);
      const text = await readExisting(store, path);
      if (input.old_str === '') throw new MemoryCommandFailure('No replacement was performed: old_str is empty. Give the exact text to replace.');
      const starts: number[] = [];
      for (let at = text.indexOf(input.old_str); at !== -1; at = text.indexOf(input.old_str, at + 1)) starts.push(at);
      const lineOf = (offset: number) => text.slice(0, offset).split('\n').length;
      if (starts.length === 0) throw new MemoryCommandFailure(`No replacement was performed, old_str \`${input.old_str}\` did not appear verbatim in ${path.display}.`);
      if (starts.length > 1) {
        throw new MemoryCommandFailure(`No replacement was performed. Multiple occurrences of old_str \`${input.old_str}\` in lines: ${starts.map(lineOf).join(', ')}. Please ensure it is unique`);
      }
      const updated = text.slice(0, starts[0]) + input.new_str + text.slice(starts[0]! + input.old_str.length);
      tooLong(path, updated.length, limits);
      await store.writeFile(path.relative, updated, { exclusive: false });
      const lines = updated.split('\n');
      const changed = lineOf(starts[0]!) - 1;
      const from = Math.max(0, changed - 2);
      const to = Math.min(lines.length, changed + input.new_str.split('\n').length + 2);
      return `The memory file has been edited. Here is the snippet showing the change (with line numbers):\n${numbered(lines.slice(from, to), from + 1)}`;
    }
    case 'insert': {
      const path = checked(input.path);
      const text = await readExisting(store, path);
      const lines = text.split('\n');
      if (!Number.isInteger(input.insert_line) || input.insert_line < 0 || input.insert_line > lines.length) {
        throw new MemoryCommandFailure(`Invalid \`insert_line\` parameter: ${input.insert_line}. It should be within the range of lines of the file: [0, ${lines.length}]`);
      }
      lines.splice(input.insert_line, 0, input.insert_text.replace(/\n$/, ''));
      const updated = lines.join('\n');
      tooLong(path, updated.length, limits);
      await store.writeFile(path.relative, updated, { exclusive: false });
      return `The file ${path.display} has been edited.`;
    }
    case 'delete': {
      const path = checked(input.path);
      if (path.relative === '') throw new MemoryCommandFailure(`Cannot delete the ${path.display} directory itself`);
      if (!(await store.delete(path.relative))) throw new MemoryCommandFailure(`The path ${path.display} does not exist`);
      return `Successfully deleted ${path.display}`;
    }
    case 'rename': {
      const from = checked(input.old_path);
      const to = checked(input.new_path);
      if (from.relative === '' || to.relative === '') throw new MemoryCommandFailure(`Cannot rename the ${from.relative === '' ? from.display : to.display} directory itself`);
      if (to.relative === from.relative || to.relative.startsWith(`${from.relative}/`)) {
        throw new MemoryCommandFailure(`Cannot move ${from.display} into itself (${to.display}).`);
      }
      const outcome = await store.rename(from.relative, to.relative);
      if (outcome === 'missing') throw new MemoryCommandFailure(`The path ${from.display} does not exist`);
      if (outcome === 'exists') throw new MemoryCommandFailure(`The destination ${to.display} already exists`);
      if (outcome === 'not-a-directory') throw new MemoryCommandFailure(`Cannot move to ${to.display}: a name on its way is a file, not a directory.`);
      return `Successfully renamed ${from.display} to ${to.display}`;
    }
  }
}

async function view(store: MemoryStore, path: MemoryPath, range: number[] | undefined): Promise<string> {
  const info = await store.stat(path.relative);
  if (!info) throw new MemoryCommandFailure(`The path ${path.display} does not exist. Please provide a valid path.`);
  if (info.kind === 'directory') {
    const rows = [`${formatSize(info.size)}\t${path.display}`];
    const walk = async (relative: string, shown: string, depth: number) => {
      const entries = (await store.list(relative)).filter((entry) => !entry.name.startsWith('.') && entry.name !== 'node_modules').sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
        rows.push(`${formatSize(entry.size)}\t${shown}/${entry.name}${entry.kind === 'directory' ? '/' : ''}`);
        if (entry.kind === 'directory' && depth < 2) await walk(child, `${shown}/${entry.name}`, depth + 1);
      }
    };
    await walk(path.relative, path.display, 1);
    return `Here're the files and directories up to 2 levels deep in ${path.display}, excluding hidden items and node_modules:\n${rows.join('\n')}`;
  }
  const text = await readExisting(store, path);
  const lines = text.split('\n');
  let first = 1;
  let shown = lines;
  if (range !== undefined) {
    const [start, end] = range;
    const valid = range.length === 2 && Number.isInteger(start) && Number.isInteger(end) && start! >= 1 && start! <= lines.length && (end === -1 || (end! >= start! && end! <= lines.length));
    if (!valid) throw new MemoryCommandFailure(`Invalid \`view_range\`: ${JSON.stringify(range)}. Give [start, end] with 1 ≤ start ≤ ${lines.length} and start ≤ end ≤ ${lines.length}, or end -1 for the end of the file.`);
    first = start!;
    shown = lines.slice(start! - 1, end === -1 ? lines.length : end);
  }
  return `Here's the content of ${path.display} with line numbers:\n${numbered(shown, first)}`;
}

/** A size as `ls -h` prints it: 0B, 512B, 4.0K, 1.2M. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  const units = ['K', 'M', 'G'];
  let size = bytes;
  let unit = -1;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${size.toFixed(1)}${units[unit]}`;
}
