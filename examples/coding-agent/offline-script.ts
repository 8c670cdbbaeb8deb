/**
 * What the offline (scripted) model does on the sample project, step by step: the same tool
 * calls a real model makes for this task. `offline-model.ts` picks the next step from the history.
 */

/** The steps, in order; `--pause-at <step>` stops the scripted model at one of them. */
export const OFFLINE_STEP_NAMES = ['explore', 'read', 'search', 'try-tests', 'plan', 'todos', 'fix', 'regression-test', 'run-tests', 'wrap-up', 'summary'] as const;

/** The name of one offline step. */
export type OfflineStepName = (typeof OFFLINE_STEP_NAMES)[number];

/** One tool call of a step. `id` is the base of its `tool_use` ids (a retry appends `_2`, `_3`, ...). */
export interface ScriptedCall {
  id: string;
  name: string;
  input: unknown;
  /** The step is done only when this call succeeded (a rejected plan is presented again). */
  mustSucceed?: boolean;
}

/** What a step may depend on: what happened so far. */
export interface StepContext {
  /** Feedback the user gave on rejected plans, oldest first. */
  planFeedback: string[];
  /** Whether the last test run failed. */
  testsFailed: boolean;
}

/** One step: what the model says, and the tool calls it makes. */
export interface OfflineStep {
  name: OfflineStepName;
  text: (context: StepContext) => string;
  calls: (context: StepContext) => ScriptedCall[];
}

const PLAN = `## Fix \`cartTotal\` ignoring quantities

**Goal:** make \`node --test\` pass by fixing how \`cartTotal\` computes the subtotal.

**Cause:** \`src/cart.js\` adds \`item.price\` once per item and never multiplies by \`item.quantity\`, so every line with a quantity other than 1 is undercounted (the quantity and discount tests must fail).

**Steps**
1. In \`src/cart.js\`, multiply each item's price by its quantity in the subtotal.
2. Add a regression test with a mixed cart (several quantities, one of them 0) to \`test/cart.test.js\`.
3. Run \`node --test\` and check that every test passes.

**Risks:** an item without \`quantity\` would now count as \`NaN\`; the JSDoc declares it required and every test passes one, so I keep it required.`;

function planText(feedback: string[]): string {
  if (feedback.length === 0) return PLAN;
  return `${PLAN}\n\n**Changes after your review**\n${feedback.map((item) => `- ${item}`).join('\n')}`;
}

type Status = 'pending' | 'in_progress' | 'completed';

function todos(...statuses: [Status, Status, Status]) {
  const items = [
    ['Multiply price by quantity in cartTotal', 'Multiplying price by quantity in cartTotal'],
    ['Add a regression test for mixed quantities', 'Adding a regression test for mixed quantities'],
    ['Run the test suite with node --test', 'Running the test suite'],
  ] as const;
  return { todos: items.map(([content, activeForm], index) => ({ content, activeForm, status: statuses[index]! })) };
}

const LAST_TEST = "  assert.equal(cartTotal([{ name: 'pen', price: 2, quantity: 5 }], { discountPercent: 10 }), 9);\n});\n";
const REGRESSION_TEST = `
test('a mixed cart adds price times quantity per line', () => {
  const items = [
    { name: 'pen', price: 1.5, quantity: 2 },
    { name: 'pad', price: 3, quantity: 3 },
    { name: 'ink', price: 0.99, quantity: 0 },
  ];
  assert.equal(cartTotal(items), 12);
});
`;

const RUN_TESTS = { command: 'node --test', description: 'Run the unit tests' };

/** The whole flow: explore (plan mode), present the plan, then execute with todos. */
export const OFFLINE_STEPS: readonly OfflineStep[] = [
  {
    name: 'explore',
    text: () => "I'll start with an overview of the project.",
    calls: () => [
      { id: 'toolu_explore_glob', name: 'Glob', input: { pattern: '**/*' } },
      { id: 'toolu_explore_package', name: 'Read', input: { file_path: 'package.json' } },
      { id: 'toolu_explore_conventions', name: 'mcp__project__conventions', input: {} },
    ],
  },
  {
    name: 'read',
    text: () => 'A single module with its tests, run by `node --test`. Let me read both.',
    calls: () => [
      { id: 'toolu_read_source', name: 'Read', input: { file_path: 'src/cart.js' } },
      { id: 'toolu_read_test', name: 'Read', input: { file_path: 'test/cart.test.js' } },
    ],
  },
  {
    name: 'search',
    text: () => 'The tests pass quantities, but I only saw `item.price` in the sum. Where is `quantity` used?',
    calls: () => [{ id: 'toolu_search_quantity', name: 'Grep', input: { pattern: 'quantity', output_mode: 'content' } }],
  },
  {
    name: 'try-tests',
    text: () => 'Only the tests and the JSDoc mention it. Let me run the tests to see the failures.',
    calls: () => [{ id: 'toolu_try_tests', name: 'Bash', input: RUN_TESTS }],
  },
  {
    name: 'plan',
    text: (context) =>
      context.planFeedback.length > 0
        ? 'Thanks, I revised the plan with your feedback.'
        : "Plan mode does not let me run commands yet, and I don't need to: the code shows the bug. Here is my plan.",
    calls: (context) => [{ id: 'toolu_plan', name: 'ExitPlanMode', input: { plan: planText(context.planFeedback) }, mustSucceed: true }],
  },
  {
    name: 'todos',
    text: () => 'The plan is approved. I will track the three steps.',
    calls: () => [{ id: 'toolu_todos_start', name: 'TodoWrite', input: todos('in_progress', 'pending', 'pending') }],
  },
  {
    name: 'fix',
    text: () => 'Fixing the subtotal: price times quantity.',
    calls: () => [
      {
        id: 'toolu_fix_edit',
        name: 'Edit',
        input: {
          file_path: 'src/cart.js',
          old_string: '  const subtotal = items.reduce((sum, item) => sum + item.price, 0);',
          new_string: '  const subtotal = items.reduce((sum, item) => sum + item.price * item.quantity, 0);',
        },
      },
    ],
  },
  {
    name: 'regression-test',
    text: () => 'Now a regression test with mixed quantities, the way this project writes them.',
    calls: () => [
      { id: 'toolu_regression_todos', name: 'TodoWrite', input: todos('completed', 'in_progress', 'pending') },
      { id: 'toolu_regression_skill', name: 'Skill', input: { skill: 'regression-test' } },
      { id: 'toolu_regression_edit', name: 'Edit', input: { file_path: 'test/cart.test.js', old_string: LAST_TEST, new_string: LAST_TEST + REGRESSION_TEST } },
    ],
  },
  {
    name: 'run-tests',
    text: () => 'Running the whole suite.',
    calls: () => [
      { id: 'toolu_run_todos', name: 'TodoWrite', input: todos('completed', 'completed', 'in_progress') },
      { id: 'toolu_run_tests', name: 'Bash', input: RUN_TESTS },
    ],
  },
  {
    name: 'wrap-up',
    text: (context) => (context.testsFailed ? 'The tests still fail; I am stopping here so you can look.' : 'All five tests pass.'),
    calls: (context) => [
      { id: 'toolu_wrap_up_todos', name: 'TodoWrite', input: todos('completed', 'completed', context.testsFailed ? 'pending' : 'completed') },
      ...(context.testsFailed ? [] : [{ id: 'toolu_wrap_up_change', name: 'mcp__project__record_change', input: { summary: 'cartTotal multiplies each price by its quantity; regression test for a mixed cart.' } }]),
    ],
  },
  {
    name: 'summary',
    text: (context) =>
      context.testsFailed
        ? 'The fix is in `src/cart.js`, but `node --test` still reports failures; see its output above.'
        : 'Done. `cartTotal` now multiplies each price by its quantity (`src/cart.js`), a new test covers a mixed cart, and `node --test` passes.',
    calls: () => [],
  },
];
