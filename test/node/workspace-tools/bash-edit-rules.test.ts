// Deny and ask rules on Edit(...) and Write(...) hold for what a Bash command writes (permissions
// hardening round): `echo x > secrets/key`, `tee`, `cp`, `sed -i`, `mv`, `rm` wrote a denied path.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { bashWriteTargets } from '../../../src/node/workspace-tools/bash-write-targets.js';
import { WorkspaceBoundary } from '../../../src/node/workspace-tools/workspace-boundary.js';
import { decidePermission } from '../../../src/permissions/decide-permission.js';
import { createRuleSet } from '../../../src/permissions/rule-set.js';
import type { PermissionMode, PermissionRules } from '../../../src/types/permission.js';
import type { Tool } from '../../../src/tools/types.js';
import { agentContext } from '../../permissions/fixtures.js';
import { makeTempDir, toolNamed } from './helpers.js';

let work: string;
let tools: Tool[];

beforeAll(async () => {
  work = await makeTempDir('ws-bash-edit-rules-');
  await fs.mkdir(path.join(work, 'secrets'));
  await fs.mkdir(path.join(work, 'src'));
  await fs.writeFile(path.join(work, 'secrets', 'key'), 'k\n');
  await fs.writeFile(path.join(work, 'a.txt'), 'a\n');
  await fs.symlink(path.join(work, 'secrets'), path.join(work, 'alias'));
  tools = workspaceTools({ cwd: work });
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

async function decide(command: string, mode: PermissionMode, rules: PermissionRules = { deny: ['Edit(secrets/**)'] }) {
  const outcome = await decidePermission({
    tool: toolNamed(tools, 'Bash'),
    toolUseId: 'toolu_write',
    rawInput: { command },
    mode,
    rules: createRuleSet(rules),
    signal: new AbortController().signal,
    agent: agentContext(mode),
    emit: () => {},
    cwd: work,
  });
  return outcome.decision;
}

const MODES: PermissionMode[] = ['default', 'plan', 'acceptEdits', 'bypassPermissions', 'dontAsk', 'auto'];

const deniedWrites = [
  'echo x > secrets/key',
  'echo x >> secrets/key',
  'echo x >| secrets/key',
  'echo x &> secrets/key',
  'echo x 2> secrets/key',
  'echo x >& secrets/key',
  '> secrets/key',
  'cat <> secrets/key',
  'echo x | tee secrets/key',
  'echo x | tee -a a.txt secrets/key',
  'cp a.txt secrets/key',
  'cp -r src secrets',
  'cp -t secrets a.txt',
  'cp --target-directory=secrets a.txt',
  'mv a.txt secrets/key',
  'mv secrets/key a.txt',
  'rm secrets/key',
  'rm -rf secrets',
  'rm -f -- secrets/key',
  'sed -i s/k/x/ secrets/key',
  'sed -i.bak -e s/k/x/ secrets/key',
  "sed --in-place 's/k/x/' secrets/key",
  'perl -pi -e s/k/x/ secrets/key',
  'truncate -s 0 secrets/key',
  'touch secrets/new',
  'mkdir secrets/dir',
  'ln -s /etc/passwd secrets/key',
  'install a.txt secrets/key',
  'dd if=a.txt of=secrets/key',
  'chmod 777 secrets/key',
  'shred -u secrets/key',
  'unlink secrets/key',
  'curl -o secrets/key http://localhost/',
  'wget -O secrets/key http://localhost/',
  'sort -o secrets/key a.txt',
  'cd secrets && rm key',
  'cd secrets; echo x > key',
  'echo x > ./secrets/key',
  `echo x > ${'WORK'}/secrets/key`,
  'echo x > alias/key',
  'echo x > "secrets/key"',
  "echo x > 'secrets'/key",
  'echo x > secrets/../secrets/key',
  'sudo rm secrets/key',
  'env FOO=1 rm secrets/key',
  'timeout 5 rm secrets/key',
  'nice -n 5 rm secrets/key',
  'nohup rm secrets/key',
  'command rm secrets/key',
  'builtin echo x > secrets/key',
  'exec rm secrets/key',
  'stdbuf -o0 tee secrets/key',
  'time rm secrets/key',
  '\\rm secrets/key',
  '"rm" secrets/key',
  'r""m secrets/key',
  '/bin/rm secrets/key',
  'FOO=1 rm secrets/key',
  "bash -c 'echo x > secrets/key'",
  "sh -c 'rm secrets/key'",
  "eval 'rm secrets/key'",
  "env -S 'rm secrets/key'",
  'echo $(rm secrets/key)',
  'echo `rm secrets/key`',
  '{ echo x; } > secrets/key',
  '(echo x) > secrets/key',
  'if true; then echo x > secrets/key; fi',
  'for f in a; do rm secrets/key; done',
  'while false; do :; done > secrets/key',
  'echo x | cat > secrets/key',
  'cat > secrets/key <<EOF\nx\nEOF',
  "bash <<'EOF'\nrm secrets/key\nEOF",
  'git checkout -- secrets/key',
  'git restore secrets/key',
  'git rm secrets/key',
  'rm secrets/{key,other}',
  'tee secrets/key < a.txt',
  "source /dev/stdin <<< 'rm secrets/key'",
  "script -c 'rm secrets/key'",
  "su -c 'rm secrets/key'",
  'busybox rm secrets/key',
  "busybox sh -c 'rm secrets/key'",
  "sudo sh -c 'rm secrets/key'",
  'exec -a x rm secrets/key',
  'command -p rm secrets/key',
  'env -i rm secrets/key',
  'exec 3>secrets/key',
  'sed -ie s/a/b/ secrets/key',
  'tar -czf secrets/key a.txt',
  'f() { rm secrets/key; }; f',
  // A link to a protected file is a way to write it later (a hard link has no real path back).
  'ln secrets/key b.txt',
  'ln -s secrets/key b.txt; echo x > b.txt',
  'cp -l secrets/key b.txt',
  'cp --link secrets/key b.txt',
  'ln -t . secrets/key',
];
const expanded = deniedWrites.map((command) => command.replace('WORK', '__WORK__'));

const askedWrites = [
  'echo x > $F',
  'echo x > secrets/*',
  'rm secrets/*',
  'rm "$F"',
  'rm $(cat list)',
  '$CMD secrets/key',
  'echo secrets/key | xargs rm',
  'find secrets -delete',
  'find . -exec rm {} +',
  'cd "$D" && rm key',
  'echo rm secrets/key | sh',
  'echo x > "unterminated',
  "alias r=rm\nr secrets/key",
  'cp a.txt secre?s/',
  'rm ~+/secrets/key',
  '. <(echo rm secrets/key)',
  'env -C secrets rm key',
  'env --chdir=secrets rm key',
  'split a.txt secrets/part',
  'mktemp secrets/XXXX',
  'tar -xf a.tar',
  'patch -p1 < fix.diff',
  'git -C secrets rm key',
];

const harmless = ['echo x > a.txt', 'cat secrets/key', 'ls secrets', 'cp secrets/key a.txt', 'rm a.txt', 'echo x 2>&1', 'echo x > /dev/null', 'sed s/k/x/ secrets/key', 'git status', 'echo secrets/key'];

describe('Edit(...) deny rules hold for what Bash writes', () => {
  it.each(expanded.flatMap((command) => MODES.map((mode) => [command, mode] as const)))('%j is denied in %s mode', async (command, mode) => {
    const decision = await decide(command.replace('__WORK__', work), mode);
    expect(decision).toMatchObject({ behavior: 'deny', reason: { type: 'rule', behavior: 'deny', rule: 'Edit(secrets/**)' } });
  });

  it.each(askedWrites.flatMap((command) => (['bypassPermissions', 'acceptEdits', 'default'] as const).map((mode) => [command, mode] as const)))(
    '%j writes what cannot be named before it runs: asked, never allowed, in %s mode',
    async (command, mode) => {
      const decision = await decide(command, mode, { deny: ['Edit(secrets/**)'], allow: ['Bash'] });
      expect(decision.behavior).not.toBe('allow');
      expect(decision.behavior).not.toBe('deny');
    },
  );

  it.each(harmless)('%j is not stopped by the Edit rule', async (command) => {
    const decision = await decide(command, 'bypassPermissions');
    expect(decision).toMatchObject({ behavior: 'allow', reason: { type: 'mode', mode: 'bypassPermissions' } });
  });

  it('Write(...) deny rules hold too, and ask rules ask (also in bypassPermissions and behind an allow rule)', async () => {
    expect(await decide('echo x > secrets/key', 'bypassPermissions', { deny: ['Write(secrets/**)'] })).toMatchObject({ behavior: 'deny', reason: { rule: 'Write(secrets/**)' } });
    for (const rules of [{ ask: ['Edit(secrets/**)'] }, { ask: ['Write(secrets/**)'] }]) {
      const decision = await decide('cp a.txt secrets/key', 'bypassPermissions', { ...rules, allow: ['Bash(cp:*)'] });
      expect(decision.behavior, JSON.stringify(rules)).toBe('defer');
      expect(decision.reason).toMatchObject({ type: 'rule', behavior: 'ask' });
    }
  });

  it('an unparseable line with an Edit rule is asked, naming why', async () => {
    const decision = await decide('rm $F', 'bypassPermissions');
    expect(decision).toMatchObject({ behavior: 'defer', reason: { type: 'rule', behavior: 'deny', rule: 'Edit(secrets/**)', message: expect.stringContaining('writes files that cannot be named') } });
  });

  it('an absolute rule and a home rule match what Bash writes', async () => {
    expect(await decide('rm secrets/key', 'bypassPermissions', { deny: [`Edit(${work}/secrets/**)`] })).toMatchObject({ behavior: 'deny' });
    expect(await decide('echo x > ~/.bashrc', 'bypassPermissions', { deny: ['Edit(~/.bashrc)'] })).toMatchObject({ behavior: 'deny' });
  });

  it('Bash writes stay refused in plan mode, and are asked (not approved) in acceptEdits', async () => {
    expect(await decide('echo x > a.txt', 'plan', {})).toMatchObject({ behavior: 'deny', reason: { type: 'mode', mode: 'plan' } });
    expect((await decide('echo x > a.txt', 'acceptEdits', {})).behavior).toBe('defer');
  });
});

describe('writing into a directory', () => {
  it('a rule that may match below a directory written into asks; one that cannot leaves the call alone', async () => {
    for (const command of ['rm -r src', 'cp a.txt src', 'mv src elsewhere', 'chmod -R 700 src']) {
      const decision = await decide(command, 'bypassPermissions', { deny: ['Edit(**/.env)'] });
      expect(decision, command).toMatchObject({ behavior: 'defer', reason: { type: 'rule', behavior: 'deny', rule: 'Edit(**/.env)' } });
    }
    for (const command of ['cp a.txt new.txt', 'rm -r src', 'touch b.txt']) {
      expect((await decide(command, 'bypassPermissions', { deny: ['Edit(secrets/**)'] })).behavior, command).toBe('allow');
    }
  });

  it('a tool whose writes throws counts as writing something unknown: asked', async () => {
    const bash = toolNamed(tools, 'Bash');
    const broken = { ...bash, ruleTarget: { ...bash.ruleTarget!, writes: () => { throw new Error('boom'); } } };
    const outcome = await decidePermission({ tool: broken, toolUseId: 't', rawInput: { command: 'echo hi' }, mode: 'bypassPermissions', rules: createRuleSet({ deny: ['Edit(secrets/**)'] }), signal: new AbortController().signal, agent: agentContext('bypassPermissions'), emit: () => {}, cwd: work });
    expect(outcome.decision.behavior).toBe('defer');
  });

  it('without Edit or Write rules, what Bash writes is not even looked at', async () => {
    const bash = toolNamed(tools, 'Bash');
    let asked = 0;
    const counting = { ...bash, ruleTarget: { ...bash.ruleTarget!, writes: (input: unknown) => (asked++, bash.ruleTarget!.writes!(input)) } };
    await decidePermission({ tool: counting, toolUseId: 't', rawInput: { command: 'rm x' }, mode: 'bypassPermissions', rules: createRuleSet({ deny: ['Read(**/.env)', 'Bash(curl:*)'] }), signal: new AbortController().signal, agent: agentContext('bypassPermissions'), emit: () => {}, cwd: work });
    expect(asked).toBe(0);
  });
});

describe('commands named after Object.prototype members', () => {
  // The command tables were plain objects: `__proto__ x` found Object.prototype as its script
  // reader and the decision threw a TypeError; `constructor x` found Object as a writer.
  const names = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'];
  for (const rules of [{ deny: ['Bash(rm:*)'] }, { deny: ['Edit(secrets/**)'] }, { deny: ['Read(secrets/**)'] }]) {
    it(`are decided like any unknown program, never a thrown error (${rules.deny[0]})`, async () => {
      for (const name of names) {
        for (const command of [`${name} x`, `${name} -r secrets`, `sudo ${name} a.txt`]) {
          const decision = await decide(command, 'default', rules);
          expect(['defer', 'ask', 'allow', 'deny']).toContain(decision.behavior);
        }
      }
    });
  }

  it('write nothing known, and read what they are given', () => {
    const boundary = new WorkspaceBoundary({ cwd: work, roots: [work] });
    for (const name of names) expect(bashWriteTargets(boundary, `${name} a.txt`)).toMatchObject({ paths: [] });
  });
});

describe('bashWriteTargets', () => {
  const boundary = () => new WorkspaceBoundary({ cwd: work, roots: [work] });
  it('names redirection targets and the written operands of writing commands, relative to every cd', () => {
    const { paths, unknown } = bashWriteTargets(boundary(), 'cd src && cp a b > out.txt; tee -a log <in');
    expect(unknown).toBeUndefined();
    for (const expected of [path.join(work, 'src', 'out.txt'), 'src/out.txt', 'out.txt', 'src/b', 'b', 'log', 'src/log']) expect(paths).toContain(expected.startsWith('/') ? expected : expected);
    expect(paths).not.toContain('a');
    expect(paths).not.toContain('in');
  });

  it('options that take no value do not hide an operand; those that do are not operands', () => {
    expect(bashWriteTargets(boundary(), 'rm -r src').paths).toContain('src');
    expect(bashWriteTargets(boundary(), 'rm -r src').directories).toContain('src');
    expect(bashWriteTargets(boundary(), 'mkdir -m 700 d').paths).not.toContain('700');
    expect(bashWriteTargets(boundary(), 'truncate -s 0 f').paths).not.toContain('0');
    expect(bashWriteTargets(boundary(), 'sed -i -e s/a/b/ f').paths).not.toContain('s/a/b/');
    expect(bashWriteTargets(boundary(), 'sed -n p f').paths).toEqual([]);
    expect(bashWriteTargets(boundary(), 'cp a.txt b.txt').paths).not.toContain('a.txt');
    expect(bashWriteTargets(boundary(), 'ln -s /etc/hosts').paths).toEqual(expect.arrayContaining(['/etc/hosts', 'hosts']));
  });
});

describe('code written on the command line (interpreters, awk, sed, make --eval)', () => {
  // python3 -c "open('secrets/key','w')" wrote a denied path unasked in bypassPermissions, or
  // behind an allow rule (perl -e unlink+q+secrets/key+ with Bash(perl:*), sed 'w secrets/key').
  const inline = [
    `python3 -c "open('secrets/key','w').write('x')"`,
    `python -c 'import os; os.remove("secrets/key")'`,
    `node -e "require('fs').writeFileSync('secrets/key','x')"`,
    `node --eval "require('fs').rmSync('secrets', {recursive: true})"`,
    'perl -e unlink+q+secrets/key+',
    `ruby -e 'File.write("secrets/key", "x")'`,
    `php -r 'unlink("secrets/key");'`,
    `env python3 -c "open('secrets/key','w')"`,
    `timeout 5 node -p "require('fs').unlinkSync('secrets/key')"`,
    "python3 - <<'EOF'\nopen('secrets/key', 'w')\nEOF",
    `echo "open('secrets/key','w')" | python3`,
    `awk 'BEGIN { print "x" > "secrets/key" }'`,
    `awk 'BEGIN { system("rm secrets/key") }'`,
    `gawk '{ print | "sh" }' a.txt`,
    "sed -n 'w secrets/key' a.txt",
    "sed 's/a/b/w secrets/key' a.txt",
    "sed -e 1d -e 's/a/b/e' a.txt",
    "make --eval='all: ; rm secrets/key'",
    'find . -name a.txt -exec python3 -c "import sys" {} +',
  ];
  const allowEverything = { deny: ['Edit(secrets/**)'], allow: ['Bash', 'Bash(perl:*)', 'Bash(sed:*)'] };

  it.each(inline.flatMap((command) => (['bypassPermissions', 'acceptEdits', 'default', 'auto'] as const).map((mode) => [command, mode] as const)))(
    '%j may write anything: with a write deny rule it is asked, never allowed, in %s mode',
    async (command, mode) => {
      const decision = await decide(command, mode, allowEverything);
      expect(decision).toMatchObject({ behavior: 'defer', reason: { type: 'rule', behavior: 'deny', rule: 'Edit(secrets/**)', message: expect.stringContaining('writes files that cannot be named') } });
    },
  );

  it.each(inline)('%j is refused at once in plan mode, with or without rules, nobody asked', async (command) => {
    for (const rules of [{}, allowEverything]) {
      expect(await decide(command, 'plan', rules), JSON.stringify(rules)).toMatchObject({ behavior: 'deny', reason: { type: 'mode', mode: 'plan' } });
    }
  });

  it.each([
    'python3 build.py',
    'python3 -m pytest',
    'python3 --version',
    'node script.js',
    "awk '{ print $1 }' a.txt",
    "awk -F: '$1 == \"x\" { n++ } END { print n }' a.txt",
    'sed -n 1,5p a.txt',
    "sed 's/hello/world/g' a.txt",
    'make',
    'make -C src test',
  ])('%j names no write on its line: allowed as before (a program file is its own)', async (command) => {
    expect(await decide(command, 'bypassPermissions')).toMatchObject({ behavior: 'allow' });
  });

  it('without write rules nothing changes: an allowed interpreter still runs', async () => {
    expect(await decide(`python3 -c "print(1)"`, 'default', { allow: ['Bash'] })).toMatchObject({ behavior: 'allow' });
  });
});

describe('what a call writes is worked out once per decision', () => {
  function counting() {
    const bash = toolNamed(tools, 'Bash');
    const seen: unknown[] = [];
    const tool = { ...bash, ruleTarget: { ...bash.ruleTarget!, writes: (input: unknown) => (seen.push(input), bash.ruleTarget!.writes!(input)) } };
    return { tool, seen };
  }
  const rules = { deny: ['Edit(secrets/**)'], ask: ['Write(build/**)'], allow: ['Bash(cp:*)'] };
  const decideWith = (tool: Tool, command: string, mode: PermissionMode, canUseTool?: Parameters<typeof decidePermission>[0]['canUseTool']) =>
    decidePermission({ tool, toolUseId: 't', rawInput: { command }, mode, rules: createRuleSet(rules), signal: new AbortController().signal, agent: agentContext(mode), emit: () => {}, cwd: work, ...(canUseTool ? { canUseTool } : {}) });

  it('once when no one is asked (deny, ask, uncheckable and the final check share it), with the same verdicts', async () => {
    const { tool, seen } = counting();
    expect((await decideWith(tool, 'cp a.txt b.txt', 'default')).decision).toMatchObject({ behavior: 'allow', reason: { type: 'rule', rule: 'Bash(cp:*)' } });
    expect(seen).toHaveLength(1);
    expect((await decideWith(tool, 'cp a.txt secrets/key', 'bypassPermissions')).decision).toMatchObject({ behavior: 'deny', reason: { rule: 'Edit(secrets/**)' } });
    expect(seen).toHaveLength(2);
  });

  it('afresh after the host answered, and for the input the host edited', async () => {
    const { tool, seen } = counting();
    const outcome = await decideWith(tool, 'echo x > a.txt', 'default', async () => ({ behavior: 'allow', updatedInput: { command: 'echo y > a.txt' } }));
    expect(outcome.decision.behavior).toBe('allow');
    expect(seen).toEqual([{ command: 'echo x > a.txt' }, { command: 'echo y > a.txt' }]);
  });

  it('a link made while the host decided is seen by the final check', async () => {
    const link = path.join(work, 'later');
    try {
      const outcome = await decideWith(toolNamed(tools, 'Bash'), 'echo x > later/key', 'default', async () => {
        await fs.symlink(path.join(work, 'secrets'), link);
        return { behavior: 'allow' };
      });
      expect(outcome.decision).toMatchObject({ behavior: 'deny', reason: { type: 'rule', rule: 'Edit(secrets/**)' } });
    } finally {
      await fs.rm(link, { force: true });
    }
  });
});
