import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filePlanStore } from 'agent-harness/node';
import { copyPlanForResume, memoryPlanStore, planNameProblem } from 'agent-harness';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('review: filePlanStore', () => {
  it('writes every name planNameProblem accepts (long names too)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'plan-review-'));
    const store = filePlanStore({ dir });
    const name = `${'a'.repeat(245)}.md`; // 248 chars, accepted (limit 255)
    expect(planNameProblem(name)).toBeUndefined();
    await expect(store.write(name, 'x')).resolves.toBeUndefined(); // actual: ENAMETOOLONG (temp name adds 19 chars)
  });
});

describe('review: copyPlanForResume', () => {
  it('restores from history when the stored plan is empty (recoverPlan treats empty as missing)', async () => {
    const store = memoryPlanStore({ initial: { 'quiet-copper-lantern.md': '' } });
    const entries = [
      { $schemaVersion: 1, id: 'e1', parentId: null, timestamp: '2026-01-01T00:00:00.000Z', sessionId: 's', kind: 'plan-snapshot', slug: 'quiet-copper-lantern', name: 'quiet-copper-lantern.md', text: '# real plan' },
    ] as never;
    const result = await copyPlanForResume({ store, slug: 'quiet-copper-lantern', entries });
    expect(result.status).toBe('restored'); // actual: 'present' with text ''
  });
});
