/**
 * What a tool does, for the permission pipeline: `read` tools only look, `edit` tools change
 * files or documents (auto-approved in `acceptEdits` inside the workspace, `cwd`: with no `cwd`, an
 * edit of a path is asked), `execute` tools run commands, `other` is anything else that is not
 * read-only.
 */
export type ToolKind = 'read' | 'edit' | 'execute' | 'other';
