/** Unreadable directories named in the note; past it, only counted. */
const NAMED_DIRECTORIES = 5;

/**
 * What a Glob or Grep walk left out without the model asking for it: entries whose names are not
 * valid UTF-8, and directories that could not be listed. Its {@link WalkReport.note} ends the
 * result, so "No files found" is never said of a place that was not searched.
 */
export class WalkReport {
  private unnameable = 0;
  private readonly unreadable: Array<{ relativePath: string; reason: string }> = [];

  /** For `walkFiles({ onUnnameable })`. */
  readonly onUnnameable = (): void => {
    this.unnameable++;
  };

  /** For `walkFiles({ onUnreadable })`. */
  readonly onUnreadable = (relativePath: string, reason: string): void => {
    this.unreadable.push({ relativePath, reason });
  };

  /** The notes to end the result with (each after a blank line), or `''`. */
  note(): string {
    let note = '';
    if (this.unnameable > 0) {
      const entries = this.unnameable === 1 ? '1 entry was left out: its name is' : `${this.unnameable} entries were left out: their names are`;
      note += `\n\n[${entries} not valid UTF-8, so no tool can open it by name. List such names with Bash (\`ls -b\`) and search them there, or rename them.]`;
    }
    if (this.unreadable.length > 0) {
      const count = this.unreadable.length;
      const named = this.unreadable
        .slice(0, NAMED_DIRECTORIES)
        .map(({ relativePath, reason }) => `${JSON.stringify(relativePath).slice(1, -1)}: ${reason === 'changed' ? 'changed during the search' : reason}`)
        .join(', ');
      const more = count > NAMED_DIRECTORIES ? `, and ${count - NAMED_DIRECTORIES} more` : '';
      note += `\n\n[${count === 1 ? '1 directory' : `${count} directories`} could not be read (${named}${more}): ${count === 1 ? 'its' : 'their'} files were not searched.]`;
    }
    return note;
  }
}
