/** The types JSON Schema knows. */
const TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);

/** Keywords whose value is a mapping of names to schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is one schema. */
const SCHEMAS = ['additionalProperties', 'items', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties'];
/** Keywords whose value is a non-empty list of schemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const COUNTS = ['maxLength', 'minLength', 'maxItems', 'minItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties'];
const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const STRINGS = ['pattern', 'format', '$ref', '$id', '$anchor', 'title', 'description'];
const BOOLEANS = ['uniqueItems', 'readOnly', 'writeOnly', 'deprecated'];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const show = (value: unknown): string => JSON.stringify(value)?.slice(0, 60) ?? String(value);

/** The problem with one keyword's value, or undefined (its subschemas are checked by the caller). */
function keywordProblem(key: string, value: unknown): string | undefined {
  if (key === 'type') {
    const types = Array.isArray(value) ? value : [value];
    if (types.length === 0 || !types.every((type) => typeof type === 'string' && TYPES.has(type)) || new Set(types).size !== types.length) {
      return `${show(value)} is not a JSON type (or a list of distinct ones: ${[...TYPES].join(', ')})`;
    }
  } else if (SCHEMA_MAPS.includes(key)) {
    if (!isRecord(value)) return `${show(value)} is not a mapping of names to schemas`;
  } else if (SCHEMA_LISTS.includes(key)) {
    if (!Array.isArray(value) || value.length === 0) return `${show(value)} is not a non-empty list of schemas`;
  } else if (key === 'required') {
    if (!Array.isArray(value) || !value.every((name) => typeof name === 'string') || new Set(value).size !== value.length) return `${show(value)} is not a list of distinct property names`;
  } else if (key === 'enum') {
    if (!Array.isArray(value)) return `${show(value)} is not a list`;
  } else if (COUNTS.includes(key)) {
    if (!Number.isInteger(value) || (value as number) < 0) return `${show(value)} is not a whole number of 0 or more`;
  } else if (NUMBERS.includes(key)) {
    if (typeof value !== 'number' || (key === 'multipleOf' && value <= 0)) return `${show(value)} is not a number${key === 'multipleOf' ? ' above 0' : ''}`;
  } else if (STRINGS.includes(key)) {
    if (typeof value !== 'string') return `${show(value)} is not a string`;
  } else if (BOOLEANS.includes(key)) {
    if (typeof value !== 'boolean') return `${show(value)} is not true or false`;
  } else if (key === 'dependentRequired') {
    if (!isRecord(value) || !Object.values(value).every((names) => Array.isArray(names) && names.every((name) => typeof name === 'string'))) return `${show(value)} is not a mapping of names to lists of names`;
  }
  return undefined;
}

/**
 * Where a JSON Schema breaks the JSON Schema 2020-12 meta-schema, for the keywords it constrains
 * (types, subschemas, counts, `required`, ...), as a phrase naming the path and the value; or
 * undefined. Keywords it does not know are annotations and pass. The Messages API refuses a
 * request whose tool has such a schema, every request of the session, so an MCP server's tool with
 * one is skipped. Call it on a schema already bounded in depth and size (`jsonBoundsProblem`).
 */
export function jsonSchemaProblem(schema: unknown, path = '(root)'): string | undefined {
  if (typeof schema === 'boolean') return undefined;
  if (!isRecord(schema)) return `at ${path}: ${show(schema)} is not a schema (an object or true/false)`;
  for (const [key, value] of Object.entries(schema)) {
    const at = path === '(root)' ? key : `${path}.${key}`;
    const problem = keywordProblem(key, value);
    if (problem !== undefined) return `at ${at}: ${problem}`;
    const children: Array<[string, unknown]> = SCHEMA_MAPS.includes(key)
      ? Object.entries(value as Record<string, unknown>).map(([name, child]) => [`${at}.${name}`, child])
      : SCHEMA_LISTS.includes(key)
        ? (value as unknown[]).map((child, index) => [`${at}.${index}`, child])
        : SCHEMAS.includes(key)
          ? [[at, value]]
          : [];
    for (const [childPath, child] of children) {
      const found = jsonSchemaProblem(child, childPath);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
