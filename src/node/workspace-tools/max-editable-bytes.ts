/**
 * Files larger than this are not read whole (Read stops once it has the lines it returns) and are
 * refused by Edit and Write: editing means holding the whole text in memory, and the
 * read-before-write rule a hash of all of it, which for a multi-gigabyte log or a sparse file
 * would take minutes and more memory than a server has. Such files are changed with Bash.
 */
export const MAX_EDITABLE_BYTES = 64 * 1024 * 1024;

/** The refusal of Edit or Write over a file larger than {@link MAX_EDITABLE_BYTES}. */
export function tooLargeToEditMessage(toolName: string, shown: string, size: number): string {
  return `${shown} is ${size} bytes, more than the ${MAX_EDITABLE_BYTES} bytes ${toolName} changes; it was left as it is. Change it with Bash instead (sed, a script), or split it into smaller files.`;
}
