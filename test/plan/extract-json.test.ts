import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { extractJson } from '../../src/plan/extract-json.js';
import { PlanSchema, type StructuredPlan } from '../../src/plan/plan-schema.js';

const plan: StructuredPlan = {
  goal: 'Write a 1,200-word article on {curly} config files',
  outline: ['Why config files matter', 'Common formats: "JSON", YAML, TOML', 'Choosing one'],
  steps: [
    { title: 'Draft the introduction', detail: 'Open with a story.\nKeep it short.' },
    { title: 'Compare the formats' },
  ],
  risks: ['Too technical for the audience'],
};
const json = JSON.stringify(plan, null, 2);
const compact = JSON.stringify(plan);

/** Realistic model answers that hold the plan, with where it should be found and how. */
const holding: Array<[string, string, string, string[]]> = [
  ['bare JSON', json, 'whole-text', []],
  ['bare JSON with surrounding whitespace and a BOM', `\uFEFF\n\n${json}\n  `, 'whole-text', []],
  ['a json fence with prose around it', `Here is the plan you asked for:\n\n\`\`\`json\n${json}\n\`\`\`\n\nLet me know if you want changes.`, 'fenced-block', []],
  ['a fence without a language', `\`\`\`\n${json}\n\`\`\``, 'fenced-block', []],
  ['a tilde fence tagged JSON', `~~~JSON\n${json}\n~~~`, 'fenced-block', []],
  ['an example block before the real one', `Format:\n\`\`\`json\n{"goal": "..."}\n\`\`\`\nAnswer:\n\`\`\`json\n${json}\n\`\`\``, 'fenced-block', []],
  ['trailing prose after bare JSON', `${json}\n\nThis plan keeps the article focused on {practical} choices.`, 'balanced', []],
  ['prose with braces and brackets before the JSON', 'I will use the [standard] structure, {as agreed}:\n' + compact, 'balanced', []],
  ['XML-ish tags around it', `<plan>\n${json}\n</plan>`, 'balanced', []],
  ['a single-line inline fence', `\`\`\`json${compact}\`\`\``, 'balanced', []],
  ['double-encoded JSON (a JSON string holding JSON)', JSON.stringify(compact), 'whole-text', ['json-string']],
  ['triple-encoded JSON', JSON.stringify(JSON.stringify(compact)), 'whole-text', ['json-string', 'json-string']],
  ['an envelope whose single string field holds the JSON', JSON.stringify({ plan: compact }), 'whole-text', ['envelope']],
  ['an envelope holding fenced JSON', JSON.stringify({ result: `\`\`\`json\n${json}\n\`\`\`` }), 'whole-text', ['envelope']],
  ['an envelope holding the object itself', JSON.stringify({ plan }), 'whole-text', ['envelope']],
  ['a fenced envelope', `\`\`\`json\n${JSON.stringify({ output: compact })}\n\`\`\``, 'fenced-block', ['envelope']],
];

describe('extractJson with the plan schema', () => {
  it.each(holding)('finds the plan in %s', (_name, text, strategy, unwrapped) => {
    const result = extractJson(text, { schema: PlanSchema });
    if (!result.ok) throw new Error(result.error);
    expect(result.value).toEqual(plan);
    expect(result.strategy).toBe(strategy);
    expect(result.unwrapped).toEqual(unwrapped);
  });

  it('types the value by the schema', () => {
    const result = extractJson(json, { schema: PlanSchema });
    if (result.ok) expect(result.value.steps[0]?.title).toBe('Draft the introduction');
  });

  it('reports truncated JSON as cut off, not as a schema problem', () => {
    for (const text of [json.slice(0, 120), `\`\`\`json\n${json.slice(0, 200)}`, `Here it is: ${compact.slice(0, -3)}`]) {
      const result = extractJson(text, { schema: PlanSchema });
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.reason).toBe('truncated');
      expect(result.error).toMatch(/cut off/);
      expect(result.error).toMatch(/still open/);
    }
  });

  it('names each bad field so the model can fix it', () => {
    const bad = { goal: '', outline: 'Intro, body', steps: [{ title: 3 }], extra: true };
    const result = extractJson(`Plan:\n\`\`\`json\n${JSON.stringify(bad)}\n\`\`\``, { schema: PlanSchema });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe('schema');
    expect(result.issues).toEqual([
      'goal: must not be empty',
      'outline: expected array, got "Intro, body"',
      'steps[0].title: expected string, got 3',
      'risks: is missing (expected array)',
    ]);
    expect(result.error).toContain('- steps[0].title: expected string, got 3');
    expect(result.error).toMatch(/send the whole JSON again/i);
  });

  it('reports JSON it cannot parse, with the parser message', () => {
    const result = extractJson('{"goal": "x", "outline": [],}', { schema: PlanSchema });
    expect(result).toMatchObject({ ok: false, reason: 'invalid-json' });
    if (!result.ok) expect(result.error).toMatch(/cannot be parsed .*trailing commas/s);
    const singleQuotes = extractJson("```json\n{'goal': 'x'}\n```");
    expect(singleQuotes).toMatchObject({ ok: false, reason: 'invalid-json' });
  });

  it('says so when there is no JSON at all', () => {
    for (const text of ['I could not come up with a plan.', '', '   ']) {
      const result = extractJson(text, { schema: PlanSchema });
      expect(result).toMatchObject({ ok: false, reason: 'no-json' });
      if (!result.ok) expect(result.error).toMatch(/no JSON/);
    }
  });

  it('skips a JSON object that fails the schema when a later one passes', () => {
    const text = `First some config: {"verbose": true}\nAnd the plan: ${compact}`;
    const result = extractJson(text, { schema: PlanSchema });
    expect(result.ok && result.value).toEqual(plan);
  });
});

describe('extractJson without a schema', () => {
  it('returns the first JSON value found', () => {
    expect(extractJson('[1, 2, 3]')).toEqual({ ok: true, value: [1, 2, 3], strategy: 'whole-text', unwrapped: [] });
    expect(extractJson('Sure: {"a": 1} and {"b": 2}')).toEqual({ ok: true, value: { a: 1 }, strategy: 'balanced', unwrapped: [] });
    expect(extractJson('42')).toMatchObject({ ok: true, value: 42 });
  });

  it('unwraps double-encoded JSON and string envelopes, but keeps object envelopes as they are', () => {
    expect(extractJson(JSON.stringify('{"a":1}'))).toMatchObject({ value: { a: 1 }, unwrapped: ['json-string'] });
    expect(extractJson('{"json": "{\\"a\\": 1}"}')).toMatchObject({ value: { a: 1 }, unwrapped: ['envelope'] });
    expect(extractJson('{"data": {"a": 1}}')).toMatchObject({ value: { data: { a: 1 } }, unwrapped: [] });
    // A single string field that is not JSON is just data.
    expect(extractJson('{"title": "Hello {world}"}')).toMatchObject({ value: { title: 'Hello {world}' }, unwrapped: [] });
  });
});

describe('extractJson past stray brackets, and never unwrapping a span in the middle of a string', () => {
  it('finds the JSON after a stray opening brace or bracket, a quoted "{", or a :-{ in the prose', () => {
    for (const prefix of ['I first considered { but then:\n', 'Note [see below:\n', 'Sure :-{ here you go\n', 'The "{" char matters.\n']) {
      const result = extractJson(prefix + compact, { schema: PlanSchema });
      expect(result.ok && result.value, prefix).toEqual(plan);
    }
  });

  it('still reports a stray bracket as cut off when nothing after it parses', () => {
    const result = extractJson('I first considered { but then stopped', { schema: PlanSchema });
    expect(result).toMatchObject({ ok: false, reason: 'truncated' });
  });

  it('reports a cut-off value as truncated even when complete values are nested in it', () => {
    const result = extractJson(`Here it is: ${compact.slice(0, compact.indexOf('"risks"'))}`, { schema: PlanSchema });
    expect(result).toMatchObject({ ok: false, reason: 'truncated' });
  });

  it('unwraps a string only when the whole string (or a fence covering it) is JSON', () => {
    expect(extractJson('{"note": "see [1]"}')).toEqual({ ok: true, value: { note: 'see [1]' }, strategy: 'whole-text', unwrapped: [] });
    expect(extractJson('"Use the list [1, 2] here"')).toEqual({ ok: true, value: 'Use the list [1, 2] here', strategy: 'whole-text', unwrapped: [] });
    expect(extractJson(JSON.stringify({ a: '```json\n[1]\n```\nand more' }))).toMatchObject({ value: { a: '```json\n[1]\n```\nand more' }, unwrapped: [] });
    expect(extractJson(JSON.stringify({ a: '  ```json\n[1]\n```  ' }))).toMatchObject({ value: [1], unwrapped: ['envelope'] });
    expect(extractJson(JSON.stringify(' [1, 2] '))).toMatchObject({ value: [1, 2], unwrapped: ['json-string'] });
  });
});

describe('extractJson on large or deep inputs', () => {
  it('returns a failure, never throws, for deeply nested input (refused for its nesting before any schema)', () => {
    for (const deep of ['['.repeat(5000) + ']'.repeat(5000), '{"a":'.repeat(40_000) + '1' + '}'.repeat(40_000)]) {
      const result = extractJson(deep, { schema: PlanSchema });
      expect(result).toMatchObject({ ok: false, reason: 'invalid-json' });
    }
  });

  it('finds a plan after 1 MB of prose full of brace pairs, stray openers and citations', () => {
    for (const filler of ['{a} ', ':-{ ', '[see ', 'As noted [1], ']) {
      const result = extractJson(filler.repeat(Math.ceil((1 << 20) / filler.length)) + compact, { schema: PlanSchema });
      expect(result.ok && result.value, filler).toEqual(plan);
    }
  });

  it('finds a plan nested a few levels down in a parsed value', () => {
    const result = extractJson(JSON.stringify({ response: { data: [{ meta: 1 }, { result: plan }] } }), { schema: PlanSchema });
    expect(result.ok && result.value).toEqual(plan);
  });

  it('says the search stopped, not that valid JSON cannot be parsed, when the budget runs out', () => {
    const text = '{"a":['.repeat(200_000) + "'";
    const result = extractJson(text, { schema: PlanSchema });
    expect(result).toMatchObject({ ok: false, reason: 'search-limit' });
    if (!result.ok) expect(result.error).toMatch(/too long .* to search/);
  });
});

describe('extractJson with other schemas', () => {
  it('accepts any zod 4 schema, also for arrays', () => {
    const result = extractJson('The steps: ["a", "b"]', { schema: z.array(z.string()) });
    expect(result).toMatchObject({ ok: true, value: ['a', 'b'] });
  });

  it('accepts a plain JSON Schema object', () => {
    const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    expect(extractJson('{"name": "x"}', { schema })).toMatchObject({ ok: true, value: { name: 'x' } });
    const bad = extractJson('{"name": 1}', { schema });
    expect(bad).toMatchObject({ ok: false, reason: 'schema' });
    if (!bad.ok) expect(bad.issues[0]).toMatch(/^name: /);
  });

  it('accepts a Standard Schema validator', () => {
    const positive = {
      '~standard': {
        version: 1 as const,
        vendor: 'test',
        validate: (value: unknown) =>
          typeof value === 'number' && value > 0 ? { value } : { issues: [{ message: 'must be a positive number', path: [] }] },
      },
    };
    expect(extractJson('5', { schema: positive })).toMatchObject({ ok: true, value: 5 });
    expect(extractJson('-5', { schema: positive })).toMatchObject({ ok: false, issues: ['(the whole value): must be a positive number'] });
  });
});
