import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { createBashTool } from '../../../src/node/workspace-tools/bash-tool.js';
import { findCatastrophicCommand } from '../../../src/node/workspace-tools/find-catastrophic-command.js';
import { resolveWorkspaceContext } from '../../../src/node/workspace-tools/workspace-context.js';
import { fakeAgent } from './helpers.js';

const catastrophic = [
  'rm -rf /',
  'rm -rf /*',
  'rm -rf ~',
  'rm -rf ~/',
  'rm -rf ~/*',
  'rm -rf $HOME',
  'rm -rf "$HOME"',
  'rm -fr //',
  'rm -r -f /.',
  'rm --recursive --force /usr',
  'rm -Rf /etc/',
  'rm -rf --no-preserve-root /',
  'rm -rf -- /',
  'sudo rm -rf /',
  'sudo -u root rm -rf /',
  'env FOO=1 rm -rf /',
  'cd /tmp && rm -rf /',
  'ls; rm -rf ~',
  'echo $(rm -rf /)',
  'bash -c "rm -rf /"',
  "sh -c 'rm -rf ~'",
  'eval rm -rf /',
  'echo / | xargs rm -rf /',
  ':(){ :|:& };:',
  ':(){ :|: & };:',
  'bomb() { bomb | bomb & }; bomb',
  'mkfs.ext4 /dev/sda1',
  'mkfs -t ext4 /dev/sdb',
  'dd if=/dev/zero of=/dev/sda bs=1M',
  'dd if=/dev/urandom of=/dev/nvme0n1',
  'cat image > /dev/sda',
  'chmod -R 777 /',
  'chown -R nobody /',
  'shred /dev/sda',
  'wipefs -a /dev/sda',
  // From the security review: each of these used to pass (and would have run in bypassPermissions).
  'find / -delete',
  'find ~ -delete',
  'find / -name x -exec rm -rf {} +',
  '{ rm -rf ~; }',
  '! rm -rf ~',
  'if true; then rm -rf ~; fi',
  'while true; do rm -rf ~; done',
  'rm --recu -f ~',
  'rm -rf --no-pres /',
  "rm -rf $'/'",
  "rm -rf $'\\x2f'",
  'rm -rf ~/{,}',
  'rm -rf /u[s]r',
  'rm -rf /*/',
  'rm -rf ${HOME:?}',
  'rm -rf "$DIR"',
  'rm -rf $(pwd)/',
  'rm -rf ~root',
  'rm -rf ~+',
  'setsid rm -rf ~',
  'chroot / rm -rf /',
  'timeout -s KILL 5 rm -rf ~',
  "env -S 'rm -rf ~'",
  "env --split-string='rm -rf ~'",
  "bash <<< 'rm -rf ~'",
  'bash <<EOF\nrm -rf ~\nEOF',
  "echo 'rm -rf ~' | sh",
  "printf 'rm -rf ~\\n' | bash -s",
  'echo $(case x in x) rm -rf ~ ;; esac)',
  "bash -c $'rm -rf /'",
  "su -c 'rm -rf /'",
  'echo "rm -rf / ; unterminated',
];

const harmless = [
  'rm -rf node_modules',
  'rm -rf ./dist /tmp/build-123',
  'rm -rf /tmp/scratch',
  'rm /',
  "rm -rf '~x'",
  'ls /',
  'echo "rm -rf /"',
  "grep 'rm -rf /' notes.md",
  'dd if=/dev/zero of=out.img bs=1k count=1',
  'dd if=x of=/dev/null',
  'chmod -R 755 src',
  'chmod 777 /tmp/x',
  'echo {a,b}',
  'cat <<EOF\nrm -rf /\nEOF',
  'rm -rf $HOME/.cache/x',
  'rm -rf "$OUT/build"',
  'rm -rf ~/.cache/*',
  'rm -rf build/* dist/{a,b}',
  'rm -rf /tmp/x-*',
  'find . -delete',
  'find / -name "*.log"',
  'timeout 5 ls /',
  'echo hi | sh',
  'echo "unterminated',
  'echo $(case x in x) echo y ;; esac)',
];

describe('findCatastrophicCommand', () => {
  it('is what the Bash tool refuses in every mode (validateInput)', async () => {
    const bash = createBashTool(resolveWorkspaceContext({ cwd: tmpdir() }));
    const agent = fakeAgent('bypassPermissions');
    const problem = await bash.validateInput?.({ input: { command: '{ rm -rf ~; }' }, toolUseId: 't', agent, signal: new AbortController().signal });
    expect(problem).toMatch(/^Refused, in every permission mode/);
  });

  it.each(catastrophic)('refuses %j', (command) => {
    expect(findCatastrophicCommand(command)).toBeTypeOf('string');
  });

  it.each(harmless)('lets %j through', (command) => {
    expect(findCatastrophicCommand(command)).toBeUndefined();
  });

  // No time asserted: a scan that backtracks takes minutes on this line and fails on the test's timeout.
  it('stays fast on long commands', () => {
    expect(findCatastrophicCommand(`echo ${'a'.repeat(200_000)} ${'{'.repeat(50_000)}`)).toBeUndefined();
  }, 30_000);
});
