// The README: "raw writes to disk devices" are refused in every mode. Commands that write the
// file an option names (tar's archive, sort -o, curl -o, wget -O, zstd -o) and dd's relatives
// wrote a disk unrefused; reading a device, or writing a file or /dev/null, is not refused.
import { describe, expect, it } from 'vitest';
import { findCatastrophicCommand } from 'agent-harness/node';

const WORKSPACE = '/srv/work/project';
const classify = (command: string) => findCatastrophicCommand(command, { cwd: WORKSPACE, home: '/home/alice', workspace: [WORKSPACE] });

const mustRefuse = [
  'tar -cf /dev/sda .', 'tar cf /dev/sda .', 'tar czf /dev/nvme0n1 src', 'tar --create --file=/dev/sda .', 'tar -c --file /dev/sdb .', 'tar -rf /dev/sda x', 'sudo tar -cf /dev/sda .',
  'sort -o /dev/sda x', 'sort x -o/dev/sda', 'sort --out=/dev/sda x', 'curl -o /dev/sda https://example.com/img', 'curl -sSLo /dev/sda https://example.com/img',
  'curl --output /dev/vda https://example.com/img', 'wget -O /dev/sda https://example.com/img', 'wget --output-document=/dev/sda https://example.com/img', 'zstd -d img.zst -o /dev/sda',
  'dcfldd if=img of=/dev/sda', 'dc3dd of=/dev/sda', 'sudo ddrescue img /dev/sda', 'nice sort -o /dev/sda x',
];

const mustNotRefuse = [
  'tar -xf /dev/sr0', 'tar -tvf /dev/st0', 'tar xf /dev/sda', 'tar -x -f /dev/sda -C dir', 'tar -cf out.tar .', 'tar -cf - . | cat', 'tar czf build.tgz dist',
  'sort -o /dev/null x', 'sort -r /dev/sda', 'curl -o out.bin https://example.com', 'wget -O - https://example.com', 'zstd x -o x.zst', 'dcfldd if=/dev/sda of=disk.img',
];

describe('attack: raw writes to disk devices through an output option', () => {
  it.each(mustRefuse)('refuses %j', (command) => {
    expect(classify(command)).toMatch(/would overwrite a disk/);
  });

  it.each(mustNotRefuse)('lets %j through', (command) => {
    expect(classify(command)).toBeUndefined();
  });
});

// The README: recursive removal of / "through wrappers (… `xargs` …)". `echo / | xargs rm -rf` was
// refused; the same path handed to xargs by a here-string or here-document was not.
describe('attack: xargs fed by a here-string or here-document', () => {
  it.each(['xargs rm -rf <<< /', 'xargs rm -rf <<< "/usr"', 'xargs -n1 sudo rm -rf <<< "/etc /tmp/x"', 'xargs rm -rf <<EOF\n/usr\nEOF', 'cat <<EOF | xargs rm -rf\n/\nEOF', 'cat <<< /etc | xargs sudo rm -rf'])(
    'refuses %j',
    (command) => {
      expect(classify(command)).toMatch(/would delete the system or a home directory/);
    },
  );

  it.each(['xargs rm -rf <<< ./build', 'xargs rm -rf <<EOF\n./dist\nnode_modules/.cache\nEOF', 'xargs echo <<< /', "xargs rm -rf <<'EOF'\n~\nEOF", 'cat list | xargs rm -rf', 'grep x <<< /'])(
    'lets %j through',
    (command) => {
      expect(classify(command)).toBeUndefined();
    },
  );
});

// The README: "raw writes to disk devices", "`kill -9 -1`". A device named through
// /proc/self/root (as `rm -rf /proc/self/root/*` is refused), and kill -1 by other names.
describe('attack: a disk device through /proc/self/root, and every process killed by another name', () => {
  it.each(['dd of=/proc/self/root/dev/sda', 'cp /dev/zero /proc/1/root/dev/nvme0n1', 'tee /proc/self/root/proc/self/root/dev/sda < /dev/zero', 'killall5 -9', 'killall5', 'pkill -9 .', 'pkill -KILL -u alice .*', "pkill ''"])('refuses %j', (command) => {
    expect(classify(command)).toBeTypeOf('string');
  });

  it.each(['dd if=/proc/self/root/dev/sda of=disk.img', 'pkill -f "node server.js"', 'pkill node', 'cp x /proc/self/root/tmp/y'])('lets %j through', (command) => {
    expect(classify(command)).toBeUndefined();
  });
});
