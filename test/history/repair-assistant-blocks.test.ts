import { describe, expect, it } from 'vitest';
import { repairAssistantBlocks } from '../../src/history/repair-assistant-blocks.js';
import type { ContentBlock } from '../../src/model/messages.js';

const blocks = (...list: unknown[]) => list as ContentBlock[];
const call = (id: string, type = 'server_tool_use') => ({ type, id, name: 'web_search', input: { query: 'x' } });
const answer = (id: string, type = 'web_search_tool_result') => ({ type, tool_use_id: id, content: [] });
const text = { type: 'text', text: 'Found it.' };

describe('repairAssistantBlocks', () => {
  it('keeps a message the API accepts as it is (the same array), signed thinking and answered server calls included', () => {
    const content = blocks({ type: 'thinking', thinking: 'Hm.', signature: 'sig' }, { type: 'redacted_thinking', data: 'abc' }, call('srvtoolu_1'), answer('srvtoolu_1'), call('mcptoolu_1', 'mcp_tool_use'), answer('mcptoolu_1', 'mcp_tool_result'), text);
    const repaired = repairAssistantBlocks(content);
    expect(repaired.changes).toEqual([]);
    expect(repaired.content).toBe(content);
  });

  it('drops thinking without a string signature and redacted thinking without data, saying so', () => {
    const repaired = repairAssistantBlocks(blocks({ type: 'thinking', thinking: 'Hm.' }, { type: 'thinking', thinking: 'Hm.', signature: null }, { type: 'redacted_thinking' }, text));
    expect(repaired.content).toEqual([text]);
    expect(repaired.changes).toEqual(['3 thinking block(s) without a signature were dropped']);
  });

  it('drops a server call with no result, a result before its call, a second result, and a result of no call', () => {
    const repaired = repairAssistantBlocks(blocks(answer('srvtoolu_2'), call('srvtoolu_2'), call('srvtoolu_1'), answer('srvtoolu_1'), answer('srvtoolu_1'), answer('srvtoolu_9'), call('srvtoolu_3'), text));
    expect(repaired.content).toEqual([call('srvtoolu_1'), answer('srvtoolu_1'), text]);
    expect(repaired.changes).toEqual(['2 server tool call(s) without their result were dropped', '3 server tool result(s) that answered no call before them were dropped']);
  });

  it('leaves client tool calls and their results alone (they are answered in the next message)', () => {
    const content = blocks({ type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} });
    expect(repairAssistantBlocks(content)).toEqual({ content, changes: [] });
  });

  it('drops a server result alone in a message (no call anywhere before it)', () => {
    const repaired = repairAssistantBlocks(blocks(text, answer('srvtoolu_1'), answer('mcptoolu_1', 'mcp_tool_result')));
    expect(repaired.content).toEqual([text]);
    expect(repaired.changes).toEqual(['2 server tool result(s) that answered no call before them were dropped']);
  });
});
