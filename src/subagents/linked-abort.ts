/** Controllers linked to each parent signal, behind one listener per signal (50 parallel subagents add one, not 50). */
const linked = new WeakMap<AbortSignal, Set<AbortController>>();

/**
 * A subagent's own abort controller, aborted when `parent` aborts (interrupting the parent stops
 * it). Call the returned `unlink` when the subagent's run ends.
 */
export function linkedAbortController(parent: AbortSignal): { controller: AbortController; unlink: () => void } {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, unlink: () => undefined };
  }
  let children = linked.get(parent);
  if (!children) {
    const set = new Set<AbortController>();
    children = set;
    linked.set(parent, set);
    parent.addEventListener('abort', () => {
      for (const child of set) child.abort(parent.reason);
      set.clear();
    }, { once: true });
  }
  children.add(controller);
  const set = children;
  return { controller, unlink: () => set.delete(controller) };
}
