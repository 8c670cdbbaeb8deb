import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod/v4';
import { compileInputSchema, precompiledInputSchema } from '../../../src/tools/input-schema.js';
import { zod4ToJsonSchema } from '../../../src/tools/zod4-to-json-schema.js';
import { createTodoWriteTool, todoWriteInput } from '../../../src/tools/builtin/todo-write.js';
import { createExitPlanModeTool, exitPlanModeInput } from '../../../src/tools/builtin/exit-plan-mode.js';
import { createEnterPlanModeTool, enterPlanModeInput } from '../../../src/tools/builtin/enter-plan-mode.js';
import type { AgentServices } from '../../../src/tools/builtin/agent-services.js';

const services = (() => ({})) as unknown as () => AgentServices;
const builtins = [
  { tool: createTodoWriteTool(services), build: todoWriteInput },
  { tool: createExitPlanModeTool(services), build: exitPlanModeInput },
  { tool: createEnterPlanModeTool(services), build: enterPlanModeInput },
];

/** Inputs near each schema's edges: missing, empty, too long, other types, unknown fields, the enum's words. */
const text = fc.oneof(fc.constant(''), fc.string({ maxLength: 20 }), fc.constant('x'.repeat(2000)), fc.constant('x'.repeat(2001)), fc.constant('y'.repeat(501)));
const value = fc.oneof(text, fc.constantFrom('pending', 'in_progress', 'completed', 'done'), fc.integer(), fc.constant(null), fc.boolean());
const todo = fc.record({ content: value, status: value, activeForm: value, extra: value }, { requiredKeys: [] });
const input = fc.oneof(
  fc.record({ todos: fc.oneof(fc.array(todo, { maxLength: 4 }), value), plan: value, reason: value, other: value }, { requiredKeys: [] }),
  value,
  fc.array(value, { maxLength: 2 }),
);

describe('the built-in tools written-out input schemas', () => {
  it.each(builtins.map(({ tool, build }) => [tool.name, tool, build] as const))('%s: its JSON Schema is what zod makes of its zod schema, key for key and in order', (_name, tool, build) => {
    expect(JSON.stringify(tool.jsonSchema)).toBe(JSON.stringify(zod4ToJsonSchema(build(), 'input')));
  });

  it.each(builtins.map(({ tool, build }) => [tool.name, tool, build] as const))('%s: its input is checked as its zod schema checks it (value and messages)', (name, tool, build) => {
    const direct = compileInputSchema(name, build());
    fc.assert(
      fc.property(input, (given) => {
        expect(tool.parseInput(given)).toEqual(direct.parse(given));
      }),
      { numRuns: 400 },
    );
  });
});

describe('precompiledInputSchema', () => {
  it('builds the zod schema at the first parse, once, and not for the tool or its definition', () => {
    const build = vi.fn(() => z.object({ name: z.string().min(2, 'a name of two letters or more') }));
    const jsonSchema = { type: 'object', properties: { name: { type: 'string', minLength: 2 } }, required: ['name'], additionalProperties: false };
    const standIn = precompiledInputSchema(jsonSchema, build);
    const compiled = compileInputSchema('named', standIn);
    expect(compiled.jsonSchema).toBe(jsonSchema);
    expect(build).not.toHaveBeenCalled();
    expect(compiled.parse({ name: 'a' })).toEqual({ ok: false, issues: ['name: a name of two letters or more'] });
    expect(compiled.parse({ name: 'ab', extra: 1 })).toEqual({ ok: true, value: { name: 'ab' } });
    expect(build).toHaveBeenCalledTimes(1);
    expect(compileInputSchema('named', standIn)).toBe(compiled);
  });
});
