import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Size of a folder: `bytes` is the apparent size (`du -sb`), `diskBytes` the blocks used (`du -sk`). */
function folderSize(path) {
  const du = (flag) => Number(execFileSync('du', [flag, path], { encoding: 'utf8' }).split('\t')[0]);
  return { bytes: du('-sb'), diskBytes: du('-sk') * 1024 };
}

/**
 * Installed size with dependencies: `npm install <spec>` into an empty temp folder, then the
 * size of its node_modules. Twice: npm's default (required peer dependencies installed too) and
 * with `--legacy-peer-deps` (the package and its own dependencies only). Needs the npm registry.
 * `breakdown` names packages whose own folders are measured too, in the default install.
 */
export function installedSize(spec, { breakdown = [] } = {}) {
  const sizes = {};
  for (const [key, extra] of [['withPeers', []], ['withoutPeers', ['--legacy-peer-deps']]]) {
    const folder = mkdtempSync(join(tmpdir(), 'bench-size-'));
    try {
      writeFileSync(join(folder, 'package.json'), '{ "name": "size-probe", "private": true }\n');
      npm(['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', ...extra, spec], folder);
      sizes[key] = folderSize(join(folder, 'node_modules'));
      if (key === 'withPeers') {
        // An optional peer (the Anthropic SDK for agent-harness) is not installed by npm: left out.
        const present = breakdown.filter((name) => existsSync(join(folder, 'node_modules', name)));
        sizes.packages = Object.fromEntries(present.map((name) => [name, folderSize(join(folder, 'node_modules', name))]));
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
  return sizes;
}

/**
 * agent-harness as it would be published: `npm pack --dry-run --json` of the repo for its own
 * files, then `npm pack` into a temp folder and the installed size of that tarball.
 */
export function harnessSizes(repoRoot) {
  const [dryRun] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], repoRoot));
  const folder = mkdtempSync(join(tmpdir(), 'bench-pack-'));
  try {
    const [packed] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', folder], repoRoot));
    const mapBytes = dryRun.files.filter((file) => file.path.endsWith('.map')).reduce((sum, file) => sum + file.size, 0);
    const ownFiles = { unpackedBytes: dryRun.unpackedSize, withoutMapsBytes: dryRun.unpackedSize - mapBytes, tarballBytes: dryRun.size, files: dryRun.entryCount };
    return { ownFiles, ...installedSize(join(folder, packed.filename), { breakdown: ['@anthropic-ai/sdk', 'zod'] }) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
