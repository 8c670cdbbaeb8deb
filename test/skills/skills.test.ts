import { describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, defineSkill, SkillFormatError, type Skill } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { collect } from '../helpers.js';

const houseStyle = defineSkill({ name: 'house-style', description: 'Our editorial style. Use when drafting.', instructions: '# House style\n- Short sentences.' });
const secret = defineSkill({ name: 'secret-recipe', description: 'Internal only.', instructions: 'Top secret.' });

describe('defineSkill', () => {
  it('refuses names and descriptions the format does not allow', () => {
    expect(() => defineSkill({ name: 'House Style', description: 'x', instructions: '' })).toThrow(SkillFormatError);
    expect(() => defineSkill({ name: '-x', description: 'x', instructions: '' })).toThrow(/not starting or ending with a hyphen/);
    expect(() => defineSkill({ name: 'x', description: ' ', instructions: '' })).toThrow(/no description/);
    expect(() => defineSkill({ name: 'x', description: 'y', instructions: undefined as never })).toThrow(/no instructions/);
    // A name or description of the wrong type is named, not reported as missing.
    expect(() => defineSkill({ name: 7 as never, description: 'y', instructions: '' })).toThrow(/has the name 7, which is a number; a skill name is a string/);
    expect(() => defineSkill({ name: 'x', description: ['y'] as never, instructions: '' })).toThrow(/\(skill "x"\) has a description that is an object, not a string/);
  });
});

describe('skills in an agent', () => {
  it('lists names and descriptions in a system block of their own, the same on every turn, and loads instructions only on demand', async () => {
    const model = scriptedModel([turn(toolCall('Skill', { skill: 'house-style' })), 'Drafted.']);
    const agent = createAgent({ model, system: 'You write articles.', skills: [houseStyle, secret] });
    const { events } = await collect(agent.run('Draft an intro'));
    const [first, second] = model.requests.map((request) => request.request.system);
    expect(first![0]).toEqual({ type: 'text', text: 'You write articles.' });
    expect(first![1]!.text).toContain('<skills>\n- house-style: Our editorial style. Use when drafting.\n- secret-recipe: Internal only.\n</skills>');
    expect(JSON.stringify(first)).not.toContain('Short sentences');
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(model.requests[0]!.request.tools.map((tool) => tool.name)).toEqual(['Skill', 'TodoWrite', 'ExitPlanMode']);
    expect(events.find((event) => event.type === 'tool-result')!.content).toBe('<skill name="house-style">\n# House style\n- Short sentences.\n</skill>');
  });

  it('answers an unknown skill with the list, and applies Skill(name) rules in every mode', async () => {
    const model = scriptedModel([turn(toolCall('Skill', { skill: 'nope' }), toolCall('Skill', { skill: 'secret-recipe' }), toolCall('Skill', { skill: 'house-style' })), 'Ok.']);
    const agent = createAgent({ model, skills: [houseStyle, secret], rules: { deny: ['Skill(secret-recipe)'] }, permissionMode: 'plan' });
    const { events } = await collect(agent.run('go'));
    const results = events.filter((event) => event.type === 'tool-result');
    expect(results.map((event) => event.isError)).toEqual([true, true, false]);
    expect(results[0]!.content).toMatch(/There is no skill named "nope". The skills are: house-style, secret-recipe/);
    expect(events.filter((event) => event.type === 'permission-decision').map((event) => event.reason.type)).toEqual(['validation', 'rule', 'read-only']);
  });

  it('awaits skills given as a promise in agent.ready, and fails runs with the error when they cannot load', async () => {
    const model = scriptedModel(['Hi.']);
    const agent = createAgent({ model, skills: Promise.resolve([houseStyle]), rules: { allow: ['Skill(house-style)'] } });
    await agent.ready;
    await agent.run('hi').result;
    expect(model.requests[0]!.request.system[0]!.text).toContain('house-style');
    const broken = createAgent({ model: scriptedModel([]), skills: Promise.reject(new SkillFormatError('skills/x/SKILL.md: no name', { source: 'x' })) });
    const result = await broken.run('hi').result;
    expect(result.status).toBe('error');
    expect(result.error).toBeInstanceOf(SkillFormatError);
    const twice = createAgent({ model: scriptedModel([]), skills: Promise.resolve([houseStyle, houseStyle]) });
    expect((await twice.run('hi').result).error).toBeInstanceOf(ConfigurationError);
  });

  it('refuses bad skills given as an array at once, and Skill rules without skills', () => {
    expect(() => createAgent({ model: scriptedModel([]), skills: [{ name: 'x' } as Skill] })).toThrow(SkillFormatError);
    expect(() => createAgent({ model: scriptedModel([]), skills: 'skills/' as never })).toThrow(/`skills` must be an array/);
    expect(() => createAgent({ model: scriptedModel([]), rules: { allow: ['Skill(x)'] } })).toThrow(/names no tool/);
  });

  it('defineSkill names a name JSON cannot write (a bigint) in a SkillFormatError, not a TypeError', () => {
    expect(() => defineSkill({ name: 10n as never, description: 'd', instructions: 'i' })).toThrow(SkillFormatError);
  });
});
