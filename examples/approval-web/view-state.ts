/**
 * What the page shows, derived from the agent alone (its messages, todos, plan and pending
 * approvals), so a reloaded page, or a page after a server restart, gets the same picture.
 */
import { PERMISSION_MODES, modeReminder, type Agent, type Message, type PendingApproval, type PermissionMode, type Todo } from 'agent-harness';

/** One line of the conversation as the page draws it. */
export type TranscriptItem =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string }
  | { kind: 'tool'; toolUseId: string; toolName: string; input: unknown; result?: string; isError?: boolean };

/** Where the session stands. */
export type ViewStatus = 'no-session' | 'idle' | 'running' | 'awaiting-approval' | 'completed' | 'interrupted' | 'error';

/** The whole page state, sent on connect and after every change. */
export interface ViewState {
  sessionId: string | null;
  status: ViewStatus;
  mode: PermissionMode | null;
  transcript: TranscriptItem[];
  /** Text streamed in the current model turn, not yet part of `transcript`. */
  streaming: string;
  todos: readonly Todo[];
  /** Calls waiting for an answer: a plan card for `reason.type === 'plan-approval'`, else a tool card. */
  approvals: readonly PendingApproval[];
  /** The approved plan, once there is one. */
  plan: { name: string; text: string } | null;
  /** The last run's error message, for status `error`. */
  error: string | null;
  /** The folder this session's tools work in (each session has its own). */
  workspaceDir: string | null;
}

/** The mode reminders the runtime adds to user messages: not something the user typed. */
const REMINDERS = new Set(PERMISSION_MODES.map((mode) => modeReminder(mode)));

function resultText(content: string | Array<{ type: string; text?: string }>): string {
  return typeof content === 'string' ? content : content.map((block) => block.text ?? `[${block.type}]`).join('\n');
}

/** Turns the conversation into transcript items: prompts, assistant text, and each tool call with its result. */
export function toTranscript(messages: readonly Message[]): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  const tools = new Map<string, Extract<TranscriptItem, { kind: 'tool' }>>();
  for (const message of messages) {
    const blocks = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
    for (const block of blocks) {
      if (block.type === 'text') {
        const text = (block as { text: string }).text;
        if (message.role === 'user' && REMINDERS.has(text)) continue;
        items.push({ kind: message.role, text });
      } else if (block.type === 'tool_use') {
        const use = block as { id: string; name: string; input: unknown };
        const item = { kind: 'tool' as const, toolUseId: use.id, toolName: use.name, input: use.input };
        tools.set(use.id, item);
        items.push(item);
      } else if (block.type === 'tool_result') {
        const result = block as { tool_use_id: string; content: string | Array<{ type: string; text?: string }>; is_error?: boolean };
        const item = tools.get(result.tool_use_id);
        if (item) Object.assign(item, { result: resultText(result.content), isError: result.is_error === true });
      }
    }
  }
  return items;
}

/** Options of {@link viewState}. */
export interface ViewStateOptions {
  /** The session's agent, or undefined before the first prompt. */
  agent: Agent | undefined;
  /** Where the session stands. */
  status: ViewStatus;
  /** Text streamed in the current turn. @default '' */
  streaming?: string;
  /** The last run's error. @default null */
  error?: string | null;
  /** The session's folder. @default null */
  workspaceDir?: string | null;
}

/** Builds the page state. Approvals are listed only between runs, when they can be answered. */
export function viewState(options: ViewStateOptions): ViewState {
  const { agent, status } = options;
  if (!agent) {
    return { sessionId: null, status, mode: null, transcript: [], streaming: '', todos: [], approvals: [], plan: null, error: options.error ?? null, workspaceDir: null };
  }
  return {
    sessionId: agent.sessionId,
    status,
    mode: agent.permissionMode,
    transcript: toTranscript(agent.messages),
    streaming: options.streaming ?? '',
    todos: agent.todos,
    approvals: agent.running ? [] : agent.pendingApprovals,
    plan: agent.plan ? { name: agent.plan.name, text: agent.plan.text } : null,
    error: options.error ?? null,
    workspaceDir: options.workspaceDir ?? null,
  };
}
