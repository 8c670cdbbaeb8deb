import { ConfigurationError } from '../errors/configuration-error.js';
import { jsonBoundsProblem, TOOL_INPUT_BOUNDS } from '../history/json-bounds.js';
import { jsonSchemaProblem } from './json-schema-problem.js';
import { rootCombinator } from './root-combinator.js';

/** Schemas already checked (or made by a converter): a tool made once and given to many agents is checked once. */
const checked = new WeakSet<object>();

/** Records a schema a converter (zod) made from a schema it checked itself, or one checked as strictly as {@link assertToolJsonSchema} would (an MCP tool's). */
export function markToolJsonSchemaChecked(jsonSchema: object): void {
  checked.add(jsonSchema);
}

/** Whether the schema was checked (or marked) already. */
export function isToolJsonSchemaChecked(jsonSchema: object): boolean {
  return checked.has(jsonSchema);
}

/**
 * @throws ConfigurationError when the tool's input schema is not an object schema (which the
 * Messages API needs).
 */
export function requireObjectSchema(toolName: string, jsonSchema: Record<string, unknown>): Record<string, unknown> {
  if (jsonSchema.type !== 'object') {
    throw new ConfigurationError(
      `Tool "${toolName}" has an input schema of type ${JSON.stringify(jsonSchema.type ?? 'unknown')}; the Messages API needs an object schema. Wrap the fields in z.object({ ... }) (or a JSON Schema with type: "object").`,
    );
  }
  return jsonSchema;
}

/**
 * Checks a host tool's JSON Schema as it will be sent: plain JSON within the bounds of a tool
 * input (no cycle, at most 64 levels deep), an object schema without `oneOf`, `anyOf` or `allOf` at
 * its top level (which the API refuses), and valid JSON Schema 2020-12 with
 * every `#…` reference resolving (`jsonSchemaProblem`, the check MCP tools get). The Messages API
 * refuses every request of the session whose tool list holds a broken schema, so it fails here.
 * @throws ConfigurationError naming the tool, the keyword (its path) and the fix.
 */
export function assertToolJsonSchema(toolName: string, jsonSchema: unknown): void {
  if (typeof jsonSchema === 'object' && jsonSchema !== null && checked.has(jsonSchema)) return;
  // Bounded first: jsonSchemaProblem recurses, and a cycle would never end.
  const bounds = jsonBoundsProblem(jsonSchema, TOOL_INPUT_BOUNDS);
  if (bounds !== undefined) {
    throw new ConfigurationError(
      `Tool "${toolName}": its input schema is ${bounds}; a tool's JSON Schema must be plain JSON (no cycles, functions or non-finite numbers), at most ${TOOL_INPUT_BOUNDS.maxDepth} levels deep. Use $defs and $ref for recursive shapes.`,
    );
  }
  if (typeof jsonSchema !== 'object' || jsonSchema === null || Array.isArray(jsonSchema)) {
    throw new ConfigurationError(`Tool "${toolName}": its input schema must be a JSON Schema object, got ${Array.isArray(jsonSchema) ? 'an array' : jsonSchema === null ? 'null' : typeof jsonSchema}.`);
  }
  requireObjectSchema(toolName, jsonSchema as Record<string, unknown>);
  const combinator = rootCombinator(jsonSchema);
  if (combinator !== undefined) {
    throw new ConfigurationError(
      `Tool "${toolName}": its input schema has ${combinator} at the top level, which the Messages API refuses in a tool's input schema (every request that carries it). Describe the fields in one object schema (alternatives may sit inside a property), and check the alternatives in validateInput.`,
    );
  }
  const problem = jsonSchemaProblem(jsonSchema);
  if (problem !== undefined) {
    throw new ConfigurationError(
      `Tool "${toolName}": its input schema is not valid JSON Schema 2020-12 (${problem}), and the Messages API would refuse every request that carries it. Fix that keyword, or describe the input with zod (z.object({ ... })).`,
    );
  }
  checked.add(jsonSchema);
}
