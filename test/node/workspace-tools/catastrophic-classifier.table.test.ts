// The catastrophic-command classifier (issue 10): a table of commands that must be refused in
// every mode and of look-alikes that must not be. 36 of 37 such commands reached the shell in
// bypassPermissions before.
import { describe, expect, it } from 'vitest';
import { findCatastrophicCommand } from '../../../src/node/workspace-tools/find-catastrophic-command.js';

const WORKSPACE = '/srv/work/project';
const HOME = '/home/alice';
const classify = (command: string) => findCatastrophicCommand(command, { cwd: WORKSPACE, home: HOME, workspace: [WORKSPACE] });

const mustRefuse: string[] = [
  // recursive removal of roots, system directories and homes, however spelled
  'rm -rf /', 'rm -rf /*', 'rm -rf /.', 'rm -rf //', 'rm -rf /./', 'rm -rf /usr/..', 'rm -fr /', 'rm -r -f /', 'rm -R /', 'rm --recursive /etc',
  'rm -rf -- /', 'rm -rf / --no-preserve-root', 'rm --no-preserve-root -rf /', 'rm -rf /usr', 'rm -rf /usr/', 'rm -rf /usr/lib', 'rm -rf /usr/bin/',
  'rm -rf /etc', 'rm -rf /etc/ssh', 'rm -rf /var/lib', 'rm -rf /boot', 'rm -rf /lib64', 'rm -rf /opt', 'rm -rf /home', 'rm -rf /home/*', 'rm -rf /home/bob',
  'rm -rf /Users/bob', 'rm -rf /root', 'rm -rf /tmp', 'rm -rf ~', 'rm -rf ~/', 'rm -rf ~/*', 'rm -rf ~/.', 'rm -rf ~root', 'rm -rf $HOME', 'rm -rf "$HOME"',
  'rm -rf ${HOME}', 'rm -rf "${HOME}/"', `rm -rf ${HOME}`, `rm -rf ${HOME}/`, 'rm -rf "/"', "rm -rf '/'", "rm -rf $'/'", "rm -rf $'\\x2f'", 'rm -rf /{,}',
  'rm -rf /u*', 'rm -rf /us?', 'rm -rf /u[s]r', 'rm -rf /*/', 'rm -rf /proc/self/root/*', 'rm -rf /proc/1/root/', 'rm -rf /proc/self/root/usr',
  '\\rm -rf /', '/bin/rm -rf /', '"rm" -rf /', 'r\\m -rf /', "'rm' -rf ~",
  // relative targets, after cd, in the real directory
  'cd / && rm -rf *', 'cd /; rm -rf *', 'cd / || rm -rf *', 'cd /usr && rm -rf lib', 'cd ~ && rm -rf *', 'cd && rm -rf *', 'cd .. && cd .. && cd .. && rm -rf *',
  'rm -rf ../../..', 'rm -rf ../../../*', 'pushd / && rm -rf *', 'cd /proc/self/root && rm -rf *',
  // wrappers
  'sudo rm -rf /', 'sudo -u root rm -rf /', 'sudo -E rm -rf /usr', 'doas rm -rf /', 'env rm -rf /', 'env -i rm -rf /', 'env FOO=1 rm -rf /', 'FOO=1 rm -rf /',
  'nice rm -rf /', 'nice -n 19 rm -rf /', 'nohup rm -rf / &', 'timeout 5 rm -rf /', 'timeout -s KILL 5 rm -rf ~', 'strace rm -rf /', 'strace -f rm -rf /',
  'strace -f -o /dev/null rm -rf /', 'ltrace rm -rf /', 'time rm -rf /', 'command rm -rf /', 'builtin eval rm -rf /', 'exec rm -rf /', 'setsid rm -rf ~',
  'chroot / rm -rf /', 'ionice -c3 rm -rf /', 'stdbuf -o0 rm -rf /', 'taskset 1 rm -rf /', 'flock /tmp/l rm -rf /', 'unshare rm -rf /', 'busybox rm -rf /',
  'fakeroot rm -rf /', 'systemd-run rm -rf /', 'valgrind rm -rf /',
  // xargs, find
  'echo / | xargs rm -rf', 'echo /* | xargs rm -rf', 'echo /usr | xargs -n1 rm -rf', 'printf "/\\n" | xargs rm -rf', 'find / -maxdepth 1 | xargs rm -rf',
  'echo / | sudo xargs rm -rf', 'xargs rm -rf /', 'find / -delete', 'find / -type f -delete', 'find ~ -delete', 'find /usr -mindepth 1 -delete',
  'find / -exec rm -rf {} +', 'find / -name x -exec rm -rf {} +', 'find ~ -maxdepth 1 -execdir rm -rf {} \\;', 'find / -exec shred {} \\;',
  // shells, eval, functions, compound commands
  'sh -c "rm -rf /"', "bash -c 'rm -rf ~'", 'bash -lc "rm -rf /"', "zsh -c 'rm -rf /'", 'dash -c "rm -rf /usr"', "bash -c $'rm -rf /'", 'eval rm -rf /',
  "eval 'rm -rf /'", 'eval "cd / && rm -rf *"', "bash <<< 'rm -rf ~'", 'bash <<EOF\nrm -rf ~\nEOF', "echo 'rm -rf ~' | sh", "printf 'rm -rf /\\n' | bash -s",
  "su -c 'rm -rf /'", "watch 'rm -rf /'", "env -S 'rm -rf ~'", "env --split-string='rm -rf ~'", 'f(){ rm -rf /; }; f', 'function f { rm -rf ~; }; f',
  '{ rm -rf ~; }', '(rm -rf /)', '! rm -rf ~', 'if true; then rm -rf ~; fi', 'while true; do rm -rf ~; done', 'for d in /; do rm -rf $d; done',
  'case x in *) rm -rf /;; esac', 'true && rm -rf /', 'false || rm -rf /', 'ls; rm -rf ~', 'rm -rf / &', 'echo $(rm -rf /)', 'echo `rm -rf /`',
  'echo "$(rm -rf ~)"', 'cat <(rm -rf /)', 'echo ${X:-$(rm -rf /)}', 'cat <<EOF\n$(rm -rf /)\nEOF', '((x = $(rm -rf /)))', 'echo $(case x in x) rm -rf ~ ;; esac)',
  // interpreters
  `python3 -c "import shutil; shutil.rmtree('/')"`, `python -c 'import shutil; shutil.rmtree("/usr")'`, `python3 -c "import os; os.system('rm -rf /')"`,
  `python3 -c "import subprocess; subprocess.run(['rm', '-rf', '/'])"`, `python3 -c "import shutil, os; shutil.rmtree(os.path.expanduser('~'))"`,
  `python3 -c "from pathlib import Path; import shutil; shutil.rmtree(Path.home())"`, `python3 -c "import shutil; shutil.move('/usr', '/tmp/gone')"`,
  `python3 -c "import os\nwhile True: os.fork()"`, `python3 - <<'EOF'\nimport shutil\nshutil.rmtree('/')\nEOF`, `echo "import shutil; shutil.rmtree('/')" | python3`,
  `perl -e 'use File::Path; rmtree("/")'`, `perl -e 'system("rm -rf /")'`, `perl -e '\`rm -rf ~\`'`, `perl -e 'fork while fork'`, `perl -MFile::Path -e 'remove_tree("/etc")'`,
  `node -e "require('fs').rmSync('/', { recursive: true, force: true })"`, `node -e "require('child_process').execSync('rm -rf /')"`,
  `node -e "require('fs').rmSync(require('os').homedir(), { recursive: true })"`, `node --eval "require('fs').rmSync('/usr', {recursive:true})"`,
  `ruby -e 'require "fileutils"; FileUtils.rm_rf("/")'`, `ruby -e 'system("rm -rf /")'`, `ruby -e '\`rm -rf ~\`'`, `ruby -e 'FileUtils.rm_rf(Dir.home)'`,
  `php -r 'system("rm -rf /");'`, `awk 'BEGIN { system("rm -rf /") }'`, `deno eval "Deno.remove('/', { recursive: true })"`, `bun -e "require('fs').rmSync('/', {recursive:true})"`,
  `python3 -c "open('/dev/sda', 'wb').write(b'x')"`,
  // moves
  'mv /usr /tmp/gone', 'mv / /tmp/x', 'mv ~ /tmp/old-home', 'mv /etc /etc.bak', 'mv -t /tmp /usr', 'mv --target-directory=/tmp /bin', 'sudo mv /lib /tmp', 'mv /home/* /tmp',
  'mv /usr/lib /tmp/lib',
  // permissions
  'chmod -R 000 /', 'chmod -R 777 /', 'chmod -R 755 /usr', 'chmod 000 /', 'chown -R nobody /', 'chown -R nobody:nogroup /etc', 'chgrp -R staff ~', 'sudo chmod -R a-x /usr/bin',
  'setfacl -R -m u:x:--- /', 'chattr -R +i /',
  // rsync
  'rsync -a --delete empty/ /', 'rsync -a --delete /tmp/empty/ ~/', 'rsync --delete-before -r x/ /usr', 'rsync -a --remove-source-files / /backup',
  // devices
  'dd if=/dev/zero of=/dev/sda', 'dd if=/dev/urandom of=/dev/nvme0n1 bs=1M', 'dd of=/dev/sdb', 'dd if=image.iso of=/dev/disk2', 'cp /dev/zero /dev/sda',
  'cp image.img /dev/mmcblk0', 'cat image > /dev/sda', 'echo x > /dev/nvme0n1', '> /dev/sda', ': > /dev/sda1', 'cat x >> /dev/vda', 'exec 3>/dev/sda',
  'echo x | tee /dev/sda', 'echo x | sudo tee /dev/sdb > /dev/null', 'cat x 1<>/dev/sda', 'echo x &> /dev/sda', 'shred /dev/sda', 'shred -n 3 -z /dev/nvme0n1',
  'blkdiscard /dev/sda', 'blkdiscard -f /dev/nvme0n1', 'wipefs -a /dev/sda', 'badblocks -w /dev/sda', 'ddrescue /dev/zero /dev/sda', 'mv file /dev/sda',
  'cp x /dev/mem', 'echo 1 > /dev/port', 'install x /dev/sdc',
  // filesystems, partitions
  'mkfs /dev/sda1', 'mkfs.ext4 /dev/sdb1', 'mkfs -t ext4 /dev/sdb', 'mkfs.vfat /dev/sdc1', 'mkfs.xfs -f /dev/nvme0n1p1', 'mkfs.btrfs /dev/sdd', 'mkdosfs /dev/sdc1',
  'mke2fs /dev/sda2', 'mkswap /dev/sda3', 'mkntfs /dev/sdb1', 'mkfs.ext4 "$DISK"', 'sudo mkfs.ext4 /dev/sda1', 'fdisk /dev/sda', 'sfdisk /dev/sda < table',
  'sgdisk --zap-all /dev/sda', 'sgdisk -Z /dev/sda', 'parted /dev/sda mklabel gpt', 'parted -s /dev/sda rm 1',
  // fork bombs and kill -1
  ':(){ :|:& };:', ':(){ :|: & };:', 'f(){ f & f; }; f', 'f(){ f | f & }; f', 'bomb() { bomb | bomb & }; bomb', 'fork() { fork & fork & }; fork',
  'b(){ b&b; };b', 'kill -9 -1', 'kill -KILL -1', 'kill -s KILL -1', 'kill -- -1', 'sudo kill -9 -1',
  // variables that could be anything, unparsable lines with a dangerous program
  'rm -rf "$DIR"', 'rm -rf $TARGET', 'rm -rf ${HOME:?}', 'rm -rf $(pwd)/', 'rm -rf `echo /`', 'a=($(rm -rf /))', 'a=(x); rm -rf /', 'echo "rm -rf / ; unterminated',
];

const mustNotRefuse: string[] = [
  'rm -rf ./build', 'rm -rf build', 'rm -rf node_modules', 'rm -rf dist/ coverage/', `rm -rf ${WORKSPACE}/build`, `rm -rf ${WORKSPACE}`,
  'rm -rf /tmp/x/y', 'rm -rf /tmp/scratch', 'rm -rf /tmp/x-*', 'rm -rf /var/tmp/build-1', 'rm -rf /opt/myapp', 'rm -rf /srv/other-project',
  'rm -rf ~/.cache/pip', 'rm -rf ~/.cache/*', 'rm -rf $HOME/.cache/x', 'rm -rf "$OUT/build"', 'rm -rf build/* dist/{a,b}', 'rm /', 'rm -f /tmp/x',
  "rm -rf '~x'", 'rm -rf ./~', 'cd build && rm -rf *', 'cd /tmp/x && rm -rf *', 'cd sub && rm -rf ../build', 'ls /', 'ls -la ~', 'du -sh /usr',
  'echo "rm -rf /"', "echo 'rm -rf /'", "grep 'rm -rf /' notes.md", 'git commit -m "rm -rf / is dangerous"', 'cat <<EOF\nrm -rf /\nEOF',
  `cat <<'EOF'\n$(rm -rf /)\nEOF`, 'man rm', 'which rm', 'type rm',
  'python3 -c "print(1)"', `python3 -c "import shutil; shutil.rmtree('build')"`, `python3 -c "import os; print(os.listdir('/'))"`, 'python3 script.py',
  `node -e "console.log(require('fs').readdirSync('/'))"`, `node -e "require('fs').rmSync('dist', { recursive: true })"`, `perl -e 'print "hello\\n"'`,
  `ruby -e 'puts Dir.home'`, `awk '{ print $1 }' file`, `python3 -c "open('/dev/null', 'w').write('x')"`,
  'mv build dist', 'mv /tmp/a /tmp/b', 'mv ~/a.txt ~/b.txt', 'mv x /usr/local/bin/x', 'cp -r src /tmp/backup', 'cp x /dev/null',
  'chmod -R 755 src', 'chmod 777 /tmp/x', 'chmod -r file', 'chown -R me ./data', 'chmod +x ~/bin/tool',
  'rsync -a --delete src/ dest/', 'rsync -a src/ /backup/', 'rsync -av ~/docs/ /mnt/backup/docs/',
  'dd if=/dev/zero of=out.img bs=1k count=1', 'dd if=/dev/sda of=disk.img', 'dd if=x of=/dev/null', 'cat /dev/urandom | head -c 10', 'echo x > /dev/null',
  'echo x > /dev/stderr', 'echo x >&2', 'cat x > /dev/tty', 'mkfs.ext4 disk.img', 'mkswap /swapfile', 'wipefs disk.img', 'fdisk -l', 'fdisk -l /dev/sda',
  'parted -l', 'sfdisk -l /dev/sda', 'lsblk', 'blkid /dev/sda1',
  'find . -delete', 'find ~ -name "*.pyc" -delete', 'find /tmp -name x -delete', 'find / -name "*.log"', 'find / -name x -exec ls {} +', 'find ~ -name core -exec rm {} \\;',
  'find . -type d -name node_modules | xargs rm -rf', 'ls / | xargs rm -rf', 'echo / | sudo rm -rf x', 'echo build | xargs rm -rf', 'timeout 5 ls /', 'sudo ls /root', 'env', 'echo hi | sh',
  'f(){ echo hi; }; f; f', 'g(){ ls; }; g | wc -l', 'kill -9 1234', 'kill -1 1234', 'kill %1', 'echo {a,b}', 'echo $(case x in x) echo y ;; esac)', 'echo "unterminated',
  'npm test', 'arr=(a b); for f in "${arr[@]}"; do cp "$f" dest/; done', 'git clean -fdx', 'git rm -rf src/old', 'docker rm -f x', 'rm -rf $OUT_DIR/build',
];

describe('catastrophic-command classifier: must refuse', () => {
  it.each(mustRefuse)('refuses %j', (command) => {
    expect(classify(command)).toBeTypeOf('string');
  });
});

describe('catastrophic-command classifier: must not refuse', () => {
  it.each(mustNotRefuse)('lets %j through', (command) => {
    expect(classify(command)).toBeUndefined();
  });
});

it('the table is large (a classifier, not a list of strings)', () => {
  expect(mustRefuse.length).toBeGreaterThan(250);
  expect(mustNotRefuse.length).toBeGreaterThan(90);
});
