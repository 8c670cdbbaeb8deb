import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { assertPermissionMode } from '../../src/permissions/assert-permission-mode.js';
import { DEFAULT_PLAN_MODE_DENY_MESSAGE, DEFAULT_PLAN_MODE_INSTRUCTIONS, modeReminder } from '../../src/permissions/mode-reminder.js';
import { PERMISSION_MODES } from '../../src/types/permission.js';

describe('assertPermissionMode', () => {
  it('accepts every mode', () => {
    for (const mode of PERMISSION_MODES) expect(() => assertPermissionMode(mode)).not.toThrow();
  });
  it.each(['Plan', 'bypass', '', 3, undefined])('rejects %j naming the valid modes', (value) => {
    expect(() => assertPermissionMode(value)).toThrow(ConfigurationError);
    expect(() => assertPermissionMode(value)).toThrow(/"default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions"/);
  });
  it('names the option', () => {
    expect(() => assertPermissionMode('x', 'setPermissionMode(mode)')).toThrow(/^setPermissionMode\(mode\) "x"/);
  });
});

describe('modeReminder', () => {
  it('gives a short text for every mode, naming it', () => {
    for (const mode of PERMISSION_MODES) {
      const text = modeReminder(mode);
      expect(text.length).toBeGreaterThan(20);
      if (mode !== 'plan') expect(text).toContain(`"${mode}"`);
    }
  });
  it('uses domain-neutral default plan instructions', () => {
    expect(modeReminder('plan')).toBe(DEFAULT_PLAN_MODE_INSTRUCTIONS);
    for (const text of [DEFAULT_PLAN_MODE_INSTRUCTIONS, DEFAULT_PLAN_MODE_DENY_MESSAGE]) {
      expect(text).toContain('ExitPlanMode');
      expect(text).toMatch(/read-only/);
      expect(text).not.toMatch(/\b(code|codebase|file|files|repository|compile|test)\b/i);
    }
    expect(DEFAULT_PLAN_MODE_INSTRUCTIONS).toMatch(/ask the user instead of guessing/);
    expect(DEFAULT_PLAN_MODE_INSTRUCTIONS).toMatch(/options/);
  });
  it('takes custom plan instructions', () => {
    expect(modeReminder('plan', { planModeInstructions: 'Outline first.' })).toBe('Outline first.');
    expect(modeReminder('default', { planModeInstructions: 'Outline first.' })).not.toContain('Outline');
  });
});
