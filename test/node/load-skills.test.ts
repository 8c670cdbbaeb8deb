import { mkdirSync, mkdtempSync, rmSync, writeFileSync, symlinkSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, SkillFormatError } from 'agent-harness';
import { loadSkills, parseSkillFile, splitAllowedTools, workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { collect } from '../helpers.js';

const fixtures = fileURLToPath(new URL('./fixtures/skills', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'agent-harness-skills-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function skillFolder(parent: string, folder: string, text: string): string {
  mkdirSync(join(parent, folder), { recursive: true });
  writeFileSync(join(parent, folder, 'SKILL.md'), text);
  return join(parent, folder);
}

describe('loadSkills', () => {
  it('rejects a call without a path string, or with wrong options, with a ConfigurationError that names them (not a TypeError from node:path)', async () => {
    const missing = loadSkills(undefined as unknown as string);
    await expect(missing).rejects.toBeInstanceOf(ConfigurationError);
    await expect(missing).rejects.toThrow(/loadSkills takes the path of the folder that holds the skill folders, as in loadSkills\('\.\/skills'\), got undefined/);
    await expect(loadSkills({ dir: fixtures } as unknown as string)).rejects.toThrow(/loadSkills takes the path .*got \{"dir":/);
    await expect(loadSkills(fixtures, { onInvalid: 'ignore' } as never)).rejects.toThrow(/loadSkills: `onInvalid` must be one of "throw", "skip", got the string "ignore"/);
    await expect(loadSkills(fixtures, { oninvalid: 'skip' } as never)).rejects.toThrow(/`oninvalid` is not an option of loadSkills; did you mean `onInvalid`\?/);
  });

  it('reads every skill folder, sorted by name, with its instructions, folder and optional fields', async () => {
    const skills = await loadSkills(fixtures);
    expect(skills.map((skill) => skill.name)).toEqual(['house-style', 'pdf-processing', 'release-notes']);
    const [house, , notes] = skills;
    expect(house!.instructions).toMatch(/^# House style\n\n- Short sentences/);
    expect(house!.directory).toBe(realpathSync(join(fixtures, 'house-style')));
    expect(house!.metadata).toEqual({ owner: 'editorial', version: '3' });
    expect(notes!.allowedTools).toEqual(['Bash(git log:*)', 'Bash(git tag:*)', 'Read']);
    expect(notes!.instructions.startsWith('1. Find the last tag')).toBe(true);
  });

  it('reads the specification example exactly as published (optional fields, file references)', async () => {
    const pdf = (await loadSkills(fixtures)).find((skill) => skill.name === 'pdf-processing')!;
    expect(pdf).toMatchObject({
      name: 'pdf-processing',
      description: 'Extract PDF text, fill forms, merge files. Use when handling PDFs.',
      license: 'Apache-2.0',
      metadata: { author: 'example-org', version: '1.0' },
      instructions: 'See [the reference guide](references/REFERENCE.md) for details.\n\nRun the extraction script:\nscripts/extract.py',
    });
  });

  it('reads a folder that is itself a skill', async () => {
    expect((await loadSkills(join(fixtures, 'house-style'))).map((skill) => skill.name)).toEqual(['house-style']);
  });

  it('refuses what breaks the format, naming the file and the fix; with onInvalid: skip it leaves such skills out and says so', async () => {
    const root = join(scratch, 'broken');
    skillFolder(root, 'good-one', '---\nname: good-one\ndescription: Fine.\n---\nDo it.');
    skillFolder(root, 'Bad-Name', '---\nname: Bad-Name\ndescription: Uppercase.\n---\n');
    await expect(loadSkills(root)).rejects.toThrow(SkillFormatError);
    await expect(loadSkills(root)).rejects.toThrow(/Bad-Name[\s\S]*lowercase letters, digits and hyphens/);
    const warnings: string[] = [];
    const skills = await loadSkills(root, { onInvalid: 'skip', onWarning: (message) => warnings.push(message) });
    expect(skills.map((skill) => skill.name)).toEqual(['good-one']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Bad-Name was left out/);
  });

  it('checks each rule of the format', () => {
    const cases: Array<[string, RegExp]> = [
      ['no frontmatter', /must start with YAML frontmatter/],
      ['---\nname: x\ndescription: y\n', /not closed/],
      ['---\nname: [unclosed\n---\n', /not valid YAML/],
      ['---\n- a list\n---\n', /must be a YAML mapping/],
      ['---\nname: other-name\ndescription: y\n---\n', /named "other-name" but its folder is "my-skill"/],
      ['---\nname: my-skill\n---\n', /has no description/],
      [`---\nname: my-skill\ndescription: ${'x'.repeat(1025)}\n---\n`, /1025 characters; the limit is 1024/],
      ['---\nname: my--skill\ndescription: y\n---\n', /lowercase letters, digits and hyphens/],
      ['---\nname: my-skill\ndescription: y\nallowed-tools: 3\n---\n', /allowed-tools/],
      ['---\nname: my-skill\ndescription: y\nlicense: [MIT]\n---\n', /"license" must be a string/],
    ];
    for (const [text, message] of cases) expect(() => parseSkillFile(text, 'my-skill/SKILL.md', 'my-skill'), text).toThrow(message);
    expect(parseSkillFile('\uFEFF---\r\nname: my-skill\r\ndescription: y\r\nunknown: kept out\r\n---\r\nBody\r\n', 'f', 'my-skill')).toEqual({ name: 'my-skill', description: 'y', instructions: 'Body' });
  });

  it('names a name or description that YAML read as a number, a boolean or a list, with the fix, instead of saying there is none', () => {
    const cases: Array<[string, RegExp]> = [
      ['---\nname: 123\ndescription: y\n---\n', /the frontmatter field "name" is the number 123, not text; put it in quotes: name: "123"/],
      ['---\nname: [a]\ndescription: y\n---\n', /the frontmatter field "name" is a list, not text/],
      ['---\nname: my-skill\ndescription: yes\n---\n', /^(?!.*has no description)/],
      ['---\nname: my-skill\ndescription: 12\n---\n', /the frontmatter field "description" is the number 12, not text; put it in quotes: description: "12"/],
      ['---\nname: my-skill\ndescription: true\n---\n', /the frontmatter field "description" is the boolean true, not text/],
      ['---\nname: my-skill\ndescription: {a: 1}\n---\n', /the frontmatter field "description" is a mapping, not text/],
    ];
    for (const [text, message] of cases) {
      if (text.includes('yes')) {
        expect(parseSkillFile(text, 'my-skill/SKILL.md', 'my-skill').description).toBe('yes');
        continue;
      }
      expect(() => parseSkillFile(text, 'my-skill/SKILL.md', 'my-skill'), text).toThrow(message);
    }
  });

  it('ends the frontmatter only at a "---" line of its own, not at an indented one inside a block value', () => {
    const text = '---\nname: my-skill\ndescription: |\n  First line.\n  ---\n  After the rule.\n---\nBody';
    const skill = parseSkillFile(text, 'my-skill/SKILL.md', 'my-skill');
    expect(skill.description).toBe('First line.\n---\nAfter the rule.\n');
    expect(skill.instructions).toBe('Body');
    // Trailing spaces after the fence are still a fence.
    expect(parseSkillFile('--- \nname: my-skill\ndescription: y\n---  \nBody', 'f', 'my-skill').instructions).toBe('Body');
  });

  it('refuses a frontmatter value that is not plain data (a circular alias) with a SkillFormatError, not a raw TypeError', async () => {
    const circular = [
      '---\nname: x\ndescription: d\nmetadata:\n  loop: &a [*a]\n---\nBody',
      '---\nname: x\ndescription: d\nmetadata: &m\n  self: *m\n---\nBody',
      '---\nname: x\ndescription: d\nmetadata:\n  deep: &a { inner: [1, *a] }\n---\nBody',
    ];
    for (const text of circular) {
      const error = (() => {
        try {
          return parseSkillFile(text, 'x/SKILL.md', 'x');
        } catch (thrown) {
          return thrown;
        }
      })();
      expect(SkillFormatError.isInstance(error), text).toBe(true);
      expect((error as Error).message).toMatch(/^x\/SKILL\.md: the frontmatter field "metadata" .*circular/);
    }
    // Each other field refuses such a value with its own message.
    for (const field of ['name', 'description', 'license', 'compatibility', 'allowed-tools']) {
      const text = field === 'name' ? '---\nname: &a [*a]\ndescription: d\n---\n' : `---\nname: x\ndescription: d\n${field}: &a [*a]\n---\n`;
      expect(() => parseSkillFile(text, 'x/SKILL.md', 'x'), field).toThrow(SkillFormatError);
    }
    const root = join(scratch, 'circular');
    skillFolder(root, 'good-one', '---\nname: good-one\ndescription: Fine.\n---\nDo it.');
    skillFolder(root, 'x', circular[0]!);
    const warnings: string[] = [];
    const skills = await loadSkills(root, { onInvalid: 'skip', onWarning: (message) => warnings.push(message) });
    expect(skills.map((skill) => skill.name)).toEqual(['good-one']);
    expect(warnings).toHaveLength(1);
  });

  it('splits allowed-tools at spaces and commas outside parentheses', () => {
    expect(splitAllowedTools('Bash(npm test:*) Read, Grep')).toEqual(['Bash(npm test:*)', 'Read', 'Grep']);
  });

  it('refuses a missing folder, and a skill reached through a link of another name', async () => {
    await expect(loadSkills(join(scratch, 'nowhere'))).rejects.toThrow(ConfigurationError);
    const root = join(scratch, 'twins');
    skillFolder(root, 'twin', '---\nname: twin\ndescription: One.\n---\n');
    mkdirSync(join(root, 'more'));
    skillFolder(join(root, 'more'), 'twin', '---\nname: twin\ndescription: Two.\n---\n');
    symlinkSync(join(root, 'more', 'twin'), join(root, 'twin-link'));
    // A link under another name is refused: a skill name equals its folder name.
    await expect(loadSkills(root)).rejects.toThrow(/named "twin" but its folder is "twin-link"/);
  });
});

describe('skills in an agent, with the workspace tools reading their files', () => {
  it('lists them in the system prompt, loads one on demand, and Read takes its files without asking', async () => {
    const work = mkdtempSync(join(scratch, 'work-'));
    const model = scriptedModel([
      turn(toolCall('Skill', { skill: 'house-style' })),
      turn(toolCall('Read', { file_path: join(fixtures, 'house-style/references/tone.md') })),
      'Drafted in house style.',
    ]);
    const agent = createAgent({ model, skills: loadSkills(fixtures), tools: workspaceTools({ cwd: work, readOnlyDirectories: [fixtures] }) });
    const { events, result } = await collect(agent.run('Draft the intro'));
    expect(result.status).toBe('completed');
    expect(events.some((event) => event.type === 'permission-request')).toBe(false);
    const system = model.requests[0]!.request.system;
    expect(system).toHaveLength(1);
    expect(system[0]!.text).toContain('- house-style: The editorial house style of the Tidewater Review.');
    expect(system[0]!.text).not.toContain('Short sentences');
    const [loaded, read] = events.filter((event) => event.type === 'tool-result');
    expect(loaded!.content).toMatch(/^<skill name="house-style">\n# House style/);
    expect(loaded!.content).toContain(`The skill's files are in ${realpathSync(join(fixtures, 'house-style'))}`);
    expect(read).toMatchObject({ isError: false, content: expect.stringContaining('No exclamation marks.') });
  });

  it('still asks before writing into a read-only directory', async () => {
    const work = mkdtempSync(join(scratch, 'work-'));
    const model = scriptedModel([turn(toolCall('Write', { file_path: join(fixtures, 'house-style/new.md'), content: 'x' }))]);
    const agent = createAgent({ model, tools: workspaceTools({ cwd: work, readOnlyDirectories: [fixtures] }), permissionMode: 'acceptEdits' });
    const { result } = await collect(agent.run('write there'));
    expect(result.status).toBe('awaiting-approval');
    expect(result.pendingApprovals[0]!.blockedPath).toBe(realpathSync(join(fixtures, 'house-style')) + '/new.md');
  });
});
