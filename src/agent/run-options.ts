import type { ValueSchema } from '../plan/value-schema.js';

/** Options of `agent.run()`. */
export interface RunOptions<S extends ValueSchema | undefined = ValueSchema | undefined> {
  /** Aborting it interrupts the run, like `agent.interrupt()`. */
  signal?: AbortSignal;
  /**
   * Ask for a typed final answer: a zod schema (3 or 4), a Standard Schema validator or a JSON
   * Schema object. The run's final answer is parsed, validated and returned as `result.output`
   * (typed after the schema). Models with native structured output (`anthropicModel`) are
   * constrained to it; others give it with a final tool call (see `outputMode`, which also says
   * what each way costs of the prompt cache). An invalid answer is sent back
   * with what was wrong, `outputRetries` times, then the run ends with `StructuredOutputError`.
   * A refusal (stop reason `refusal`) is not sent back: the run ends at once with status `error`
   * and a `StructuredOutputError` whose `refused` is true, and no `output`.
   * @default undefined (no typed output)
   */
  outputSchema?: S;
  /**
   * How many times an invalid final answer is sent back before the run fails.
   * @default 1
   */
  outputRetries?: number;
  /**
   * How the model gives its typed answer:
   * - `native` — constrained to the schema by the model itself (`anthropicModel`: the request's
   *   `output_config.format`). The API then adds a system prompt of its own, so a run with a format
   *   (or with another one) does not read the session's cached system prompt and history: on a
   *   long session, that request writes the whole context to the cache again (1.25× the input
   *   price instead of 0.1×). Refused with `ConfigurationError` on a model without it.
   * - `tool` — by calling a `StructuredOutput` tool whose input schema is `outputSchema` (sent on
   *   this run's requests only, after the agent's tools, which also changes the cached prefix; a
   *   JSON answer in text is accepted too).
   * - `text` — as a JSON object in its final message, with the schema shown in the prompt: the
   *   request is the session's as it is, and reads its cached prefix. Validated, and sent back
   *   with what was wrong (`outputRetries`), like the others. `requestPlan` asks for its plan so.
   * A validator without a JSON Schema always uses `text`, and so does an agent with no tools at
   * all with `tool` (the API refuses a later request whose history holds tool calls but that
   * defines no tools).
   * @default 'native' where the model has it, else 'tool'
   */
  outputMode?: 'native' | 'tool' | 'text';
  /**
   * The run's id, recorded on its `run-start` and `run-end` entries and in the result. A host
   * that runs the agent from a job queue passes its job id, to find in the transcript after a
   * crash whether (and how far) that job's run already went (see `agent-harness/bullmq`).
   * @default a random `run_…` id
   */
  runId?: string;
  /**
   * Keep the run's events for an iterator that starts late (after the run has emitted some, or
   * after it ended). With `false`, an iterator gets the events from the moment it starts (one
   * that starts at once, `for await (const event of agent.run(…, { bufferEvents: false }))`, gets
   * them all), and a run nobody iterates keeps none: for a host that only listens
   * (`agent.on`) or awaits `run.result`, so a long run with streamed text does not hold every
   * delta until it ends. Listeners get every event either way.
   * @default true
   */
  bufferEvents?: boolean;
}
