const STOP_WORDS = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'into', 'is', 'it', 'its', 'of', 'on', 'or', 'that', 'the', 'this', 'to', 'with', 'i', 'me', 'my', 'we', 'you', 'your', 'want', 'need', 'can', 'tool', 'tools']);

/**
 * Verbs people use for the few actions tool names are built from (`create_`, `get_`, `update_`,
 * `delete_`, `list_`), mapped to that action, so "open a ticket" meets `create_issue` and
 * "cancel a meeting" meets `delete_event`.
 */
const VERB_SYNONYMS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    create: ['add', 'new', 'make', 'open', 'post', 'send', 'write', 'publish', 'schedule', 'insert', 'register', 'upload', 'book', 'start', 'compose', 'submit'],
    delete: ['remove', 'cancel', 'drop', 'destroy', 'erase', 'discard', 'purge'],
    update: ['edit', 'change', 'modify', 'rename', 'patch', 'set', 'amend'],
    get: ['fetch', 'read', 'show', 'view', 'describe', 'retrieve', 'lookup', 'inspect', 'detail'],
    list: ['browse', 'enumerate', 'all'],
  }).flatMap(([verb, synonyms]) => synonyms.map((synonym): [string, string] => [synonym, verb])),
);

/** Reduces a word to a rough stem, so `issues` meets `issue` and `queries` meets `query`. */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

/**
 * Splits text into search terms: camelCase, snake_case and `mcp__server__tool` names come apart
 * into words; lower case; common English words dropped; plurals folded; action verbs mapped to
 * the verbs tool names use. (A Map, not an object: a word such as `constructor` or `__proto__`
 * must not find an inherited property.)
 */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '' && !STOP_WORDS.has(word))
    .map((word) => VERB_SYNONYMS.get(word) ?? stem(word));
}
