import { z } from 'zod';
import { defineTool, memorySessionStore, type AgentEvent, type AgentRun, type CanUseTool, type SessionEntry, type SessionStore, type ToolResultBlock } from 'agent-harness';

/** A deferred promise a test resolves by hand (no timers). */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Collects every event of a run and its result. */
export async function collect(run: AgentRun) {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return { events, result: await run.result };
}

/** A read-only echo tool. */
export const echoTool = defineTool({
  name: 'echo',
  description: 'Echoes its text.',
  inputSchema: z.object({ text: z.string() }),
  readOnly: true,
  execute: ({ input }) => `echo: ${input.text}`,
});

/** Resolves on the next macrotask turn; lets pending microtasks and I/O callbacks settle. */
export function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** One question for `AskUserQuestion` (tests of what happens to the user's answers). */
export const constraintsQuestion = {
  question: 'Which constraints must the article respect?',
  header: 'Constraints',
  options: [
    { label: 'Strict', description: 'Follow the brief to the letter' },
    { label: 'Loose', description: 'Interpret freely' },
  ],
  multiSelect: false,
};

/** The user's answer to {@link constraintsQuestion}: long enough for clearing to consider it. */
export const CONSTRAINTS_ANSWER = `ANSWER-17: no jargon, cite two primary sources, and keep it under 900 words. ${'The reader is a beginner. '.repeat(30)}`;

/** A host that answers {@link constraintsQuestion} with {@link CONSTRAINTS_ANSWER} and allows every other call. */
export const answersConstraints: CanUseTool = (_name, input, context) =>
  context.reason.type === 'question'
    ? { behavior: 'allow', updatedInput: { ...(input as object), answers: { [constraintsQuestion.question]: CONSTRAINTS_ANSWER } } }
    : { behavior: 'allow' };

/** A memory store that records what is appended once `watch()` was called (what a stopped run must no longer write). */
export function watchedStore() {
  const inner = memorySessionStore();
  const late: SessionEntry[] = [];
  let watching = false;
  const store: SessionStore = {
    ...inner,
    append: (sessionId, entries, options) => {
      if (watching) late.push(...entries);
      return inner.append(sessionId, entries, options);
    },
  };
  return { store, late, watch: () => (watching = true) };
}

/** What `work` throws, or undefined when it returns. */
export function thrownBy(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  return undefined;
}

/**
 * The tool results `entries` store, by call id: in a `tool-result` entry, or in the user message
 * carrying them to the model (a batch's last answer is stored there only; the message's block
 * wins where both hold one).
 */
export function storedResults(entries: readonly SessionEntry[]): Map<string, ToolResultBlock> {
  const results = new Map<string, ToolResultBlock>();
  for (const entry of entries) {
    if (entry.kind === 'tool-result') results.set(entry.toolUseId, entry.result as ToolResultBlock);
    else if (entry.kind === 'message' && entry.message.role === 'user' && Array.isArray(entry.message.content)) {
      for (const block of entry.message.content) if (block.type === 'tool_result') results.set((block as ToolResultBlock).tool_use_id, block as ToolResultBlock);
    }
  }
  return results;
}

/** The ids of the tool calls whose results `entries` store (see {@link storedResults}). */
export function storedResultIds(entries: readonly SessionEntry[]): Set<string> {
  return new Set(storedResults(entries).keys());
}
