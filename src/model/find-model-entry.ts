/** Lookups already made in a frozen table (the built-in ones), by model id: a few per agent. */
const memos = new WeakMap<object, Map<string, unknown>>();
/** Ids remembered per table: a server names a handful of models; past this, lookups are not kept. */
const MEMO_LIMIT = 256;

/**
 * Looks a model up in a table keyed by model id prefix: the longest matching prefix wins. Cloud
 * ids carry a vendor prefix (`us.anthropic.claude-…`, `anthropic.claude-…`), so the id is also
 * matched from its `claude-` on. A frozen table (the built-in ones) is searched once per id.
 * @param modelId - e.g. `claude-sonnet-4-6` or `us.anthropic.claude-sonnet-4-6-v1:0`.
 * @param table - entries by id prefix.
 * @returns the entry of the longest matching prefix, or undefined when none matches.
 */
export function findModelEntry<T>(modelId: string, table: Readonly<Record<string, T>>): T | undefined {
  // Only a frozen table can be remembered: any other may have changed since.
  if (!Object.isFrozen(table)) return searchTable(modelId, table);
  let memo = memos.get(table);
  if (!memo) memos.set(table, (memo = new Map()));
  if (memo.has(modelId)) return memo.get(modelId) as T | undefined;
  const entry = searchTable(modelId, table);
  if (memo.size < MEMO_LIMIT) memo.set(modelId, entry);
  return entry;
}

function searchTable<T>(modelId: string, table: Readonly<Record<string, T>>): T | undefined {
  const at = modelId.indexOf('claude-');
  const candidates = at > 0 ? [modelId, modelId.slice(at)] : [modelId];
  let best: string | undefined;
  for (const id of candidates) {
    for (const prefix of Object.keys(table)) {
      if (id.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
    }
  }
  return best === undefined ? undefined : table[best];
}
