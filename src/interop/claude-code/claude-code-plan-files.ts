import { isRecord, lastSegment, stringField, type JsonRecord } from './claude-code-line-fields.js';

/** A backup of a plan file found in a `file-history-snapshot` or `file-history-delta` line. */
export interface PlanFileBackup {
  /** The tracked path as Claude Code recorded it (absolute, or relative to the project). */
  filePath: string;
  /** The backup's file name in Claude Code's file history, e.g. `3f2a9c0d1e2b4a5f@v2`. */
  backupFileName: string;
  version?: number;
  backupTime?: string;
  /** The plan file's name (the last segment of its path). */
  name: string;
  /** The plan's slug: the session's, or the file name without `.md` (and `-agent-…`). */
  slug: string;
  /** The subagent whose plan it is (`{slug}-agent-{agentId}.md`), else undefined. */
  agentId?: string;
}

/** At most this many plan paths are remembered (a hostile file naming thousands is cut off). */
const MAX_PATHS = 1000;

/** A backup name Claude Code writes (`<hash>@v<n>`): one plain file name, never a path. */
export function isSafeBackupFileName(name: string): boolean {
  return /^[A-Za-z0-9._@-]{1,255}$/.test(name) && name !== '.' && name !== '..';
}

/**
 * Knows which tracked files of a session are its plan files — the paths Claude Code named in
 * plan attachments and `ExitPlanMode` calls, and files named after the session's plan slug
 * (`{slug}.md`, `{slug}-agent-{agentId}.md`) — and picks their backups out of file-history
 * lines, each backup once.
 */
export class ClaudeCodePlanFiles {
  private slug: string | undefined;
  private readonly paths = new Set<string>();
  private readonly names = new Set<string>();
  private readonly lastBackup = new Map<string, string>();

  setSlug(slug: string): void {
    this.slug = slug;
  }

  /** Remembers a plan file path the session named (non-strings are ignored). */
  notePath(path: unknown): void {
    const value = stringField(path);
    if (value === undefined || this.paths.has(value) || this.paths.size >= MAX_PATHS) return;
    this.paths.add(value);
    this.names.add(lastSegment(value));
  }

  /** The plan file backups a file-history line records that were not seen before. */
  backupsOf(line: JsonRecord): PlanFileBackup[] {
    const found: PlanFileBackup[] = [];
    if (line.type === 'file-history-delta') {
      const path = stringField(line.trackingPath);
      if (path !== undefined) this.collect(path, line.backup, found);
    } else if (isRecord(line.snapshot) && isRecord(line.snapshot.trackedFileBackups)) {
      for (const [path, backup] of Object.entries(line.snapshot.trackedFileBackups)) this.collect(path, backup, found);
    }
    return found;
  }

  private collect(path: string, backup: unknown, found: PlanFileBackup[]): void {
    if (!isRecord(backup)) return;
    const match = this.planFile(path);
    const backupFileName = stringField(backup.backupFileName);
    // A null backup name means the file did not exist yet at that point.
    if (match === undefined || backupFileName === undefined || !isSafeBackupFileName(backupFileName)) return;
    if (this.lastBackup.get(path) === backupFileName) return;
    if (!this.lastBackup.has(path) && this.lastBackup.size >= MAX_PATHS) return;
    this.lastBackup.set(path, backupFileName);
    found.push({
      filePath: path,
      backupFileName,
      ...(typeof backup.version === 'number' && Number.isFinite(backup.version) ? { version: backup.version } : {}),
      ...(stringField(backup.backupTime) !== undefined ? { backupTime: backup.backupTime as string } : {}),
      ...match,
    });
  }

  private planFile(path: string): { name: string; slug: string; agentId?: string } | undefined {
    const name = lastSegment(path);
    if (!name.endsWith('.md')) return undefined;
    const stem = name.slice(0, -'.md'.length);
    const agentMatch = /^(.+?)-agent-(.+)$/.exec(stem);
    const slug = this.slug;
    if (slug !== undefined && stem === slug) return { name, slug };
    if (slug !== undefined && agentMatch && agentMatch[1] === slug) return { name, slug, agentId: agentMatch[2]! };
    if (!this.paths.has(path) && !this.names.has(name)) return undefined;
    return agentMatch ? { name, slug: agentMatch[1]!, agentId: agentMatch[2]! } : { name, slug: slug ?? stem };
  }
}
