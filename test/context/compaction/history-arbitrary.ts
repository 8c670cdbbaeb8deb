import fc from 'fast-check';
import type { ContentBlock, Message } from '../../../src/model/messages.js';

const word = fc.constantFrom('alpha', 'beta', 'draft', 'file.ts', 'résumé', '日本', 'x'.repeat(300), 'line\nbreak');
const text = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));

/** One step of a conversation, before ids are assigned. */
type Step =
  | { kind: 'prompt'; text: string; asString: boolean; image: boolean }
  | { kind: 'answer'; text: string; thinking: boolean }
  | { kind: 'calls'; count: number; text: string | undefined; thinking: boolean; withReminder: boolean; results: string[]; errors: boolean[] };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('prompt' as const), text, asString: fc.boolean(), image: fc.boolean() }),
  fc.record({ kind: fc.constant('answer' as const), text, thinking: fc.boolean() }),
  fc.record({
    kind: fc.constant('calls' as const),
    count: fc.integer({ min: 1, max: 3 }),
    text: fc.option(text, { nil: undefined }),
    thinking: fc.boolean(),
    withReminder: fc.boolean(),
    results: fc.array(text, { minLength: 3, maxLength: 3 }),
    errors: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  }),
);

/** How a generated history ends. */
export type HistoryEnd = 'answer' | 'results' | 'open-call';

/**
 * Random valid conversations in wire shape: prompts (string or blocks, sometimes an image),
 * answers (sometimes after thinking), and tool rounds of 1-3 parallel calls answered in order
 * (sometimes with a reminder text after the results), ending with an answer, with tool results
 * (mid-run), or with an open call (a pending approval).
 */
export function historyArbitrary(end?: HistoryEnd): fc.Arbitrary<{ messages: Message[]; end: HistoryEnd }> {
  return fc
    .record({
      steps: fc.array(step, { minLength: 1, maxLength: 25 }),
      end: end ? fc.constant(end) : fc.constantFrom<HistoryEnd>('answer', 'results', 'open-call'),
    })
    .map(({ steps, end: ending }) => ({ messages: build(steps, ending), end: ending }));
}

function build(steps: Step[], end: HistoryEnd): Message[] {
  const messages: Message[] = [];
  let ids = 0;
  let open: string[] = [];
  // A user turn is pending content to add; roles must alternate.
  const pushUser = (blocks: ContentBlock[]) => {
    const last = messages[messages.length - 1];
    if (last?.role === 'user') {
      const previous = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
      messages[messages.length - 1] = { role: 'user', content: [...previous, ...blocks] };
    } else messages.push({ role: 'user', content: blocks });
  };
  const ensureUser = () => {
    if (messages.length === 0 || messages[messages.length - 1]!.role === 'assistant') messages.push({ role: 'user', content: 'Start.' });
  };
  const thinkingBlock = (): ContentBlock => ({ type: 'thinking', thinking: 'Considering it.', signature: `sig-${ids}` });
  for (const current of steps) {
    if (current.kind === 'prompt') {
      if (messages[messages.length - 1]?.role === 'user') continue;
      const blocks: ContentBlock[] = [{ type: 'text', text: current.text }];
      if (current.image) blocks.push({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } });
      if (current.asString && !current.image) messages.push({ role: 'user', content: current.text });
      else messages.push({ role: 'user', content: blocks });
    } else if (current.kind === 'answer') {
      ensureUser();
      messages.push({ role: 'assistant', content: [...(current.thinking ? [thinkingBlock()] : []), { type: 'text', text: current.text }] });
    } else {
      ensureUser();
      open = Array.from({ length: current.count }, () => `toolu_${String(++ids).padStart(4, '0')}`);
      messages.push({
        role: 'assistant',
        content: [
          ...(current.thinking ? [thinkingBlock()] : []),
          ...(current.text ? [{ type: 'text' as const, text: current.text }] : []),
          ...open.map((id) => ({ type: 'tool_use' as const, id, name: id.endsWith('1') ? 'Read' : 'Bash', input: { path: `${id}.md` } })),
        ],
      });
      pushUser([
        ...open.map((id, index) => ({ type: 'tool_result' as const, tool_use_id: id, content: current.results[index]!, ...(current.errors[index] ? { is_error: true } : {}) })),
        ...(current.withReminder ? [{ type: 'text' as const, text: 'Reminder: the mode changed.' }] : []),
      ]);
      open = [];
    }
  }
  ensureUser();
  const last = messages[messages.length - 1]!;
  if (end === 'answer') {
    messages.push({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] });
  } else if (end === 'results') {
    if (last.role === 'user' && typeof last.content !== 'string' && last.content.some((block) => block.type === 'tool_result')) return messages;
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_end_${++ids}`, name: 'Read', input: {} }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_end_${ids}`, content: 'end result' }] });
  } else {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_open_${++ids}`, name: 'Write', input: { path: 'out.md' } }] });
  }
  return messages;
}

/** The open call's results, as the loop appends them after a pending approval is answered. */
export function answerOpenCall(messages: Message[]): Message[] {
  const last = messages[messages.length - 1]!;
  if (last.role !== 'assistant') return messages;
  const ids = last.content.filter((block) => block.type === 'tool_use').map((block) => (block as { id: string }).id);
  if (ids.length === 0) return messages;
  return [...messages, { role: 'user', content: ids.map((id) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'approved and done' })) }];
}
