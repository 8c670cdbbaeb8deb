/** Imperative verbs that commonly start a plan step, for {@link toActiveForm}. */
const VERBS = new Set([
  'add', 'adjust', 'analyse', 'analyze', 'answer', 'apply', 'ask', 'assess', 'audit', 'back', 'begin', 'benchmark',
  'brainstorm', 'build', 'calculate', 'call', 'check', 'choose', 'cite', 'clarify', 'clean', 'close', 'collect',
  'commit', 'compare', 'compile', 'complete', 'conclude', 'configure', 'confirm', 'connect', 'contact', 'convert',
  'create', 'cut', 'debug', 'decide', 'define', 'delete', 'deploy', 'describe', 'design', 'document', 'download',
  'draft', 'draw', 'edit', 'email', 'emphasize', 'estimate', 'evaluate', 'expand', 'explain', 'explore', 'extract',
  'fetch', 'fill', 'finalise', 'finalize', 'find', 'finish', 'fix', 'format', 'gather', 'generate', 'get', 'highlight',
  'identify', 'illustrate', 'implement', 'improve', 'insert', 'inspect', 'install', 'integrate', 'interview',
  'introduce', 'investigate', 'link', 'list', 'load', 'log', 'make', 'map', 'measure', 'merge', 'migrate', 'monitor',
  'move', 'note', 'open', 'optimise', 'optimize', 'organise', 'organize', 'outline', 'pick', 'plan', 'polish',
  'prepare', 'profile', 'proofread', 'publish', 'push', 'put', 'read', 'record', 'refactor', 'reference', 'release',
  'remove', 'rename', 'reorder', 'replace', 'reply', 'research', 'restore', 'restructure', 'review', 'revise',
  'rewrite', 'run', 'save', 'scan', 'schedule', 'search', 'select', 'send', 'set', 'share', 'ship', 'shorten',
  'simplify', 'sketch', 'split', 'start', 'stop', 'store', 'structure', 'submit', 'summarise', 'summarize', 'swap',
  'tag', 'test', 'tidy', 'tighten', 'track', 'translate', 'trim', 'update', 'upgrade', 'upload', 'validate', 'verify',
  'wire', 'wrap', 'write',
]);

/** Verbs whose last consonant doubles before -ing. */
const DOUBLING = new Set([
  'begin', 'commit', 'cut', 'debug', 'format', 'get', 'log', 'map', 'plan', 'put', 'run', 'scan', 'set', 'ship',
  'stop', 'submit', 'swap', 'tag', 'trim', 'wrap',
]);

function ingForm(verb: string): string {
  if (DOUBLING.has(verb)) return `${verb}${verb.at(-1)}ing`;
  if (verb.endsWith('ie')) return `${verb.slice(0, -2)}ying`;
  if (verb.endsWith('e') && !/(ee|ye|oe)$/.test(verb)) return `${verb.slice(0, -1)}ing`;
  return `${verb}ing`;
}

/**
 * The present-continuous form of an imperative step title, as `TodoWrite` wants for
 * `activeForm`: "Draft the introduction" → "Drafting the introduction". Titles that do not start
 * with a known verb become "Working on: {title}".
 */
export function toActiveForm(title: string): string {
  const trimmed = title.trim();
  const match = /^([A-Za-z]+)(.*)$/s.exec(trimmed);
  const word = match?.[1];
  if (!match || word === undefined || !VERBS.has(word.toLowerCase())) return `Working on: ${trimmed}`;
  const ing = ingForm(word.toLowerCase());
  const cased = word[0] === word[0]?.toUpperCase() ? ing[0]?.toUpperCase() + ing.slice(1) : ing;
  return `${cased}${match[2] ?? ''}`;
}
