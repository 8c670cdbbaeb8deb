import { describe, expect, it } from 'vitest';

describe('examples/migration/ported-app.ts (the migration guide\'s example)', () => {
  it('runs offline: allowed reads run, the disallowed delete is refused by its rule, the write is asked and allowed', async () => {
    const previous = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      const { main, log } = await import('../../examples/migration/ported-app.js');
      expect(await main()).toMatch(/^completed: The notes are tidy/);
      expect(log).toEqual(
        expect.arrayContaining(['read_note: allow (rule)', 'delete_note: deny (rule)', 'asked: write_note', 'write_note: allow (callback)', 'ran: read_note', 'ran: write_note']),
      );
      expect(log).not.toContain('asked: delete_note');
    } finally {
      if (previous !== undefined) process.env.ANTHROPIC_API_KEY = previous;
    }
  });
});
