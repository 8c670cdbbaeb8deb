import { describe, expect, it } from 'vitest';
import type { AgentEvent } from 'agent-harness';
import { trace } from '../../examples/writing-assistant/trace.js';

// The demo's trace is what a newcomer reads: a warning the agent emits (a prompt-cache bust, a
// refused image, a compaction that did not help) must show in it, not vanish.
describe('writing-assistant trace', () => {
  it('prints a warning with its source', () => {
    let out = '';
    const warning = { type: 'warning', source: 'prompt-cache', message: "This session's request prefix changed since its last requests." } as AgentEvent;
    trace(warning, (text) => (out += text));
    expect(out).toBe("\n  ⚠ prompt-cache: This session's request prefix changed since its last requests.\n");
  });
});
