import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('examples/writing-assistant (the demo)', () => {
  it('runs offline: explores with writes refused, prints the plan card, writes the draft while the todos tick over', async () => {
    const env = { ...process.env };
    delete env.ANTHROPIC_API_KEY;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/writing-assistant/main.ts', '--yes'], { cwd: root, env });
    expect(stdout).toContain('offline, scripted model');
    expect(stdout).toMatch(/✗ write_section: .*planning phase is active/);
    expect(stdout).toMatch(/╭─+╮\n│ PLAN/);
    expect(stdout).toContain('Goal: A 600-word article');
    expect(stdout).toMatch(/Plan saved as [a-z]+-[a-z]+-[a-z]+\.md/);
    expect(stdout).toContain('todos 3/3');
    // The house-style skill is loaded before the first section is written.
    const skill = stdout.indexOf('→ Skill {"skill":"house-style"}');
    expect(skill).toBeGreaterThan(-1);
    expect(stdout).toContain('← Skill: <skill name="house-style">');
    expect(skill).toBeLessThan(stdout.indexOf('→ write_section {"heading":"Sit still'));
    expect(stdout).toMatch(/usage: \d+ model calls/);
    // verifyPlan after the draft: a structured verdict with one finding per step.
    expect(stdout).toContain('verdict: compliant — All three planned sections were written');
    expect(stdout).toMatch(/✓ Write the opening: write_section "Sit still for five minutes" succeeded/);
    expect(stdout.match(/^ {2}✓ /gm)).toHaveLength(3);
    const draftPath = /draft: (.+)/.exec(stdout)![1]!.trim();
    const draft = readFileSync(draftPath, 'utf8');
    expect(draft.match(/^## /gm)).toHaveLength(3);
    expect(draft).toContain('Sit still for five minutes');
  });
});
