// Replaces the p-queue module (vi.doMock): runs in the isolated project (vitest.config.ts).
import { describe, expect, it, vi } from 'vitest';

describe('ToolQueue when p-queue fails to load', () => {
  it('fails the calls waiting on that load, then loads it again for the next group of calls', async () => {
    vi.resetModules();
    let loads = 0;
    vi.doMock('../../src/loop/p-queue-class.js', async () => {
      loads++;
      if (loads === 1) throw new Error('p-queue briefly unreadable');
      return { PQueueClass: (await vi.importActual<typeof import('p-queue')>('p-queue')).default };
    });
    try {
      const { ToolQueue: FreshQueue } = await import('../../src/loop/tool-queue.js');
      const queue = new FreshQueue(1);
      const ran: string[] = [];
      const first = queue.add(async () => void ran.push('first'));
      await expect(first).rejects.toThrow();
      expect(loads).toBe(1);
      expect(queue.idle).toBe(true);
      await queue.add(async () => void ran.push('second'));
      expect(ran).toEqual(['second']);
      expect(loads).toBe(2);
    } finally {
      vi.doUnmock('../../src/loop/p-queue-class.js');
      vi.resetModules();
    }
  });
});
