import { describe, expect, it } from 'vitest';
import { createRuleSet, parseRule } from 'agent-harness';
import { assertRulesNameTools } from '../../src/permissions/assert-rules-name-tools.js';
import { ruleNamesTool } from '../../src/permissions/rule-names-tool.js';

const tool = (name: string) => ({ name, ruleTarget: undefined });

describe('rules naming MCP servers', () => {
  it('lets mcp__<server> and mcp__<server>__* cover exactly that server', () => {
    expect(ruleNamesTool('mcp__git', 'mcp__git__status')).toBe(true);
    expect(ruleNamesTool('mcp__git', 'mcp__github__status')).toBe(false);
    expect(ruleNamesTool('mcp__git__*', 'mcp__git__status')).toBe(true);
    expect(ruleNamesTool('mcp__git__*', 'mcp__github__status')).toBe(false);
    expect(ruleNamesTool('mcp__notes_db', 'mcp__notes_db__read')).toBe(true);
    expect(ruleNamesTool('mcp__notes', 'mcp__notes_db__read')).toBe(false);
    expect(ruleNamesTool('Bash', 'BashTwo')).toBe(false);
  });

  it('parses the wildcard form, and matches rule lists against MCP tools', () => {
    expect(parseRule('mcp__github__*')).toEqual({ toolName: 'mcp__github__*' });
    expect(() => parseRule('mcp__github*')).toThrow(/malformed/);
    const rules = createRuleSet({ deny: ['mcp__github__*'], allow: ['mcp__notes'] });
    expect(rules.match('deny', tool('mcp__github__delete_repo'), {})).toBe('mcp__github__*');
    expect(rules.match('allow', tool('mcp__notes__read'), {})).toBe('mcp__notes');
    expect(rules.match('allow', tool('mcp__notes2__read'), {})).toBeUndefined();
  });

  it('accepts rules for configured servers (also tools not listed yet) and names the servers when a rule misses', () => {
    expect(() => assertRulesNameTools({ allow: ['mcp__notes', 'mcp__notes__*', 'mcp__notes__later'] }, ['Read'], { mcpServers: ['notes'] })).not.toThrow();
    expect(() => assertRulesNameTools({ deny: ['mcp__Notes'] }, ['Read'], { mcpServers: ['notes'] })).toThrow(/did you mean "mcp__notes"/);
    expect(() => assertRulesNameTools({ deny: ['mcp__other__x'] }, ['Read'], { mcpServers: ['notes'] })).toThrow(/The agent has the MCP servers notes/);
    expect(() => assertRulesNameTools({ deny: ['Read__*'] }, ['Read'])).toThrow(/names no tool/);
  });
});
