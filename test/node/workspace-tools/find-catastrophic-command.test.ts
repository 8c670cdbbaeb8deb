import { describe, expect, it } from 'vitest';
import { findCatastrophicCommand } from '../../../src/node/workspace-tools/find-catastrophic-command.js';

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
];

describe('findCatastrophicCommand', () => {
  it.each(catastrophic)('refuses %j', (command) => {
    expect(findCatastrophicCommand(command)).toBeTypeOf('string');
  });

  it.each(harmless)('lets %j through', (command) => {
    expect(findCatastrophicCommand(command)).toBeUndefined();
  });

  it('stays fast on long commands', () => {
    const started = performance.now();
    expect(findCatastrophicCommand(`echo ${'a'.repeat(200_000)} ${'{'.repeat(50_000)}`)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
