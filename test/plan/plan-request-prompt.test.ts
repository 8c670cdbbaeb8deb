import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { extractJson } from '../../src/plan/extract-json.js';
import { buildPlanRequestPrompt, buildPlanRetryPrompt } from '../../src/plan/plan-request-prompt.js';
import { PlanSchema } from '../../src/plan/plan-schema.js';

describe('buildPlanRequestPrompt', () => {
  it('asks for JSON only and shows the JSON Schema of the plan', () => {
    const prompt = buildPlanRequestPrompt();
    expect(prompt).toMatch(/Reply with only the JSON object/);
    expect(prompt).toMatch(/do not call any tools/);
    const schema = JSON.parse(prompt.slice(prompt.indexOf('{'), prompt.lastIndexOf('}') + 1));
    expect(schema.required).toEqual(['goal', 'outline', 'steps', 'risks']);
    expect(schema.properties.steps.items.properties.title.description).toMatch(/imperative/);
  });

  it("uses the host's schema and instructions", () => {
    const prompt = buildPlanRequestPrompt({ schema: z.object({ headline: z.string() }), instructions: 'Plan the newsletter.' });
    expect(prompt.startsWith('Plan the newsletter.')).toBe(true);
    expect(prompt).toContain('"headline"');
    expect(prompt).not.toContain('"risks"');
  });
});

describe('buildPlanRetryPrompt', () => {
  it('sends back what was wrong and asks again', () => {
    const failure = extractJson('{"goal": "x"}', { schema: PlanSchema });
    if (failure.ok) throw new Error('expected a failure');
    const prompt = buildPlanRetryPrompt(failure);
    expect(prompt).toContain('- outline: is missing (expected array)');
    expect(prompt).toMatch(/Send the complete plan again/);
    expect(buildPlanRetryPrompt('It was cut off.')).toContain('It was cut off.');
  });
});
