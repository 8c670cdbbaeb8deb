import type { ValueSchema } from '../plan/value-schema.js';

/** Options of `agent.run()`. */
export interface RunOptions<S extends ValueSchema | undefined = ValueSchema | undefined> {
  /** Aborting it interrupts the run, like `agent.interrupt()`. */
  signal?: AbortSignal;
  /**
   * Ask for a typed final answer: a zod schema (3 or 4), a Standard Schema validator or a JSON
   * Schema object. The run's final answer is parsed, validated and returned as `result.output`
   * (typed after the schema). Models with native structured output (`anthropicModel`) are
   * constrained to it; others give it with a final tool call (see `outputMode`). An invalid answer is sent back
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
   * How a model without native structured output gives its typed answer: `tool` — by calling a
   * `StructuredOutput` tool whose input schema is `outputSchema` (sent on this run's requests
   * only, after the agent's tools; a JSON answer in text is accepted too); `text` — as a JSON
   * object in its final message, with the schema shown in the prompt (the tool list, and so the
   * cached prefix, stays exactly the session's). A validator without a JSON Schema always uses
   * `text`, and so does an agent with no tools at all (the API refuses a later request whose
   * history holds tool calls but that defines no tools). Models with native support ignore it.
   * @default 'tool'
   */
  outputMode?: 'tool' | 'text';
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
