import { isToolResultBlock, isToolUseBlock, type ContentBlock } from '../../model/messages.js';
import { isRecord, stringField, type JsonRecord } from './claude-code-line-fields.js';
import type { ClaudeCodeSubagent } from './claude-code-session-types.js';
import { SUBAGENT_TOOLS, toolInputObject } from './claude-code-tools.js';

interface Call {
  toolName: string;
  parentAgentId: string | undefined;
  subagentType: string | undefined;
  description: string | undefined;
  prompt: string | undefined;
  /** A 1.x sidechain was matched to it by its prompt. */
  matched: boolean;
}

/** At most this many subagents are described (the map is for hosts, not for the transcript). */
const MAX_SUBAGENTS = 10_000;

/**
 * Links each subagent to the tool call that started it (`Task`, or `Agent` in later versions):
 * by the `agentId` on the call's result (2.x), by `agent_progress` lines naming both (2.x), or —
 * for 1.x inline sidechains, which carry no agent id — by the sidechain's first prompt being the
 * call's `prompt`. Unanswered calls are held until their result arrives.
 */
export class ClaudeCodeSubagents {
  private readonly calls = new Map<string, Call>();

  /** @param byAgent - The map to describe the subagents in (the reader's `subagents`). */
  constructor(readonly byAgent = new Map<string, ClaudeCodeSubagent>()) {}

  /** Notes the subagent calls of an assistant message. */
  noteCalls(content: ContentBlock[], parentAgentId: string | undefined): void {
    for (const block of content) {
      if (!isToolUseBlock(block) || !SUBAGENT_TOOLS.has(block.name)) continue;
      const input = toolInputObject(block.input);
      this.calls.set(block.id, {
        toolName: block.name,
        parentAgentId,
        subagentType: stringField(input?.subagent_type),
        description: stringField(input?.description),
        prompt: stringField(input?.prompt),
        matched: false,
      });
    }
  }

  /** A `progress` line of kind `agent_progress`: `data.agentId` runs the call `parentToolUseID`. */
  noteProgress(line: JsonRecord): void {
    const data = line.data;
    if (!isRecord(data) || data.type !== 'agent_progress') return;
    const agentId = stringField(data.agentId);
    const toolUseId = stringField(line.parentToolUseID);
    if (agentId !== undefined && toolUseId !== undefined) this.link(agentId, toolUseId, false);
  }

  /** The results of a user message: a subagent call's result names its agent (2.x) and ends the call. */
  noteResults(content: ContentBlock[] | string, toolUseResult: unknown): void {
    if (typeof content === 'string' || this.calls.size === 0) return;
    const results = content.filter(isToolResultBlock).filter((block) => this.calls.has(block.tool_use_id));
    for (const block of results) {
      const agentId = results.length === 1 && isRecord(toolUseResult) ? stringField(toolUseResult.agentId) : undefined;
      if (agentId !== undefined) this.link(agentId, block.tool_use_id, true);
      this.calls.delete(block.tool_use_id);
    }
  }

  /** The first line of a 1.x inline sidechain: its prompt is the prompt of the call that started it. */
  noteSidechainStart(agentId: string, content: unknown): void {
    if (typeof content !== 'string' || this.byAgent.has(agentId)) return;
    for (const [toolUseId, call] of this.calls) {
      if (!call.matched && call.prompt !== undefined && call.prompt === content) {
        call.matched = true;
        this.link(agentId, toolUseId, false);
        return;
      }
    }
  }

  private link(agentId: string, toolUseId: string, final: boolean): void {
    if (this.byAgent.has(agentId)) return;
    const call = this.calls.get(toolUseId);
    if (call === undefined || this.byAgent.size >= MAX_SUBAGENTS) return;
    this.byAgent.set(agentId, {
      agentId,
      toolUseId,
      toolName: call.toolName,
      ...(call.subagentType !== undefined ? { subagentType: call.subagentType } : {}),
      ...(call.description !== undefined ? { description: call.description } : {}),
      ...(call.parentAgentId !== undefined ? { parentAgentId: call.parentAgentId } : {}),
    });
    if (final) this.calls.delete(toolUseId);
  }
}
