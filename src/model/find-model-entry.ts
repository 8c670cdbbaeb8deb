/**
 * Looks a model up in a table keyed by model id prefix: the longest matching prefix wins. Cloud
 * ids carry a vendor prefix (`us.anthropic.claude-…`, `anthropic.claude-…`), so the id is also
 * matched from its `claude-` on.
 * @param modelId - e.g. `claude-sonnet-4-6` or `us.anthropic.claude-sonnet-4-6-v1:0`.
 * @param table - entries by id prefix.
 * @returns the entry of the longest matching prefix, or undefined when none matches.
 */
export function findModelEntry<T>(modelId: string, table: Readonly<Record<string, T>>): T | undefined {
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
