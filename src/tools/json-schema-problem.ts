/** The types JSON Schema knows. */
const TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);

/** Keywords whose value is a mapping of names to schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is one schema. */
const SCHEMAS = ['additionalProperties', 'items', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
/** Keywords whose value is a non-empty list of schemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const COUNTS = ['maxLength', 'minLength', 'maxItems', 'minItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties'];
const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const STRINGS = ['pattern', 'format', '$ref', '$id', '$anchor', '$dynamicRef', '$dynamicAnchor', '$schema', '$comment', 'title', 'description', 'contentEncoding', 'contentMediaType'];
/** The meta-schema's `anchorString`, which `$anchor` and `$dynamicAnchor` must match. */
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;
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
    if ((key === '$anchor' || key === '$dynamicAnchor') && !ANCHOR.test(value)) return `${show(value)} is not an anchor name (a letter or _, then letters, digits, -, _ or .)`;
    if (key === '$id' && !/^[^#]*#?$/.test(value)) return `${show(value)} has a fragment, which $id may not have`;
  } else if (key === 'examples') {
    if (!Array.isArray(value)) return `${show(value)} is not a list`;
  } else if (key === '$vocabulary') {
    if (!isRecord(value) || !Object.values(value).every((used) => typeof used === 'boolean')) return `${show(value)} is not a mapping of vocabulary URIs to true or false`;
  } else if (key === 'dependencies') {
    if (!isRecord(value)) return `${show(value)} is not a mapping of names to schemas or lists of names`;
  } else if (BOOLEANS.includes(key)) {
    if (typeof value !== 'boolean') return `${show(value)} is not true or false`;
  } else if (key === 'dependentRequired') {
    if (!isRecord(value) || !Object.values(value).every((names) => Array.isArray(names) && names.every((name) => typeof name === 'string') && new Set(names).size === names.length)) return `${show(value)} is not a mapping of names to lists of distinct names`;
  }
  return undefined;
}

/** What one walk of a schema gathers for the reference check. */
interface Walk {
  /** Every `$ref` that names a place in this document (`#…`), with the path of the keyword. */
  refs: Array<{ at: string; ref: string }>;
  /** The `$anchor` (and `$dynamicAnchor`) names. */
  anchors: Set<string>;
  /** A subschema with its own `$id` is another resource: its `#…` references are its own. */
  embeddedResource: boolean;
}

/** The problem with the first keyword that breaks the meta-schema, depth first. */
function structureProblem(schema: unknown, path: string, walk: Walk): string | undefined {
  if (typeof schema === 'boolean') return undefined;
  if (!isRecord(schema)) return `at ${path}: ${show(schema)} is not a schema (an object or true/false)`;
  for (const [key, value] of Object.entries(schema)) {
    const at = path === '(root)' ? key : `${path}.${key}`;
    const problem = keywordProblem(key, value);
    if (problem !== undefined) return `at ${at}: ${problem}`;
    if (key === '$ref' && (value as string).startsWith('#')) walk.refs.push({ at, ref: value as string });
    else if ((key === '$anchor' || key === '$dynamicAnchor') && typeof value === 'string') walk.anchors.add(value);
    else if (key === '$id' && path !== '(root)') walk.embeddedResource = true;
    const children: Array<[string, unknown]> = SCHEMA_MAPS.includes(key)
      ? Object.entries(value as Record<string, unknown>).map(([name, child]) => [`${at}.${name}`, child])
      : key === 'dependencies'
        ? Object.entries(value as Record<string, unknown>)
            .filter(([, child]) => !(Array.isArray(child) && child.every((name) => typeof name === 'string')))
            .map(([name, child]) => [`${at}.${name}`, child])
      : SCHEMA_LISTS.includes(key)
        ? (value as unknown[]).map((child, index) => [`${at}.${index}`, child])
        : SCHEMAS.includes(key)
          ? [[at, value]]
          : [];
    for (const [childPath, child] of children) {
      const found = structureProblem(child, childPath, walk);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Whether `ref` (`#`, `#/json/pointer` or `#anchor`) names something in `root`. */
function resolves(root: unknown, ref: string, anchors: ReadonlySet<string>): boolean {
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return false;
  }
  if (fragment === '') return true;
  if (!fragment.startsWith('/')) return anchors.has(fragment);
  let current: unknown = root;
  for (const token of fragment.slice(1).split('/')) {
    const name = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current) ? !/^(0|[1-9][0-9]*)$/.test(name) || Number(name) >= current.length : !isRecord(current) || !Object.hasOwn(current, name)) return false;
    current = (current as Record<string, unknown>)[name];
  }
  return isRecord(current) || typeof current === 'boolean';
}

/**
 * Where a JSON Schema breaks the JSON Schema 2020-12 meta-schema, for the keywords it constrains
 * (types, subschemas, counts, `required`, ...), or has a `$ref` to a place in the schema
 * (`#/$defs/x`, `#anchor`) that is not there, as a phrase naming the path and the value; or
 * undefined. Keywords it does not know are annotations and pass; references to other documents
 * (and within a subschema with its own `$id`) are not followed. The Messages API refuses a
 * request whose tool has such a schema, every request of the session: an MCP server's tool with
 * one is skipped, a host's tool is refused by `defineTool` and `createAgent`. Call it on a schema
 * already bounded in depth and size (`jsonBoundsProblem`).
 */
export function jsonSchemaProblem(schema: unknown): string | undefined {
  const walk: Walk = { refs: [], anchors: new Set(), embeddedResource: false };
  const problem = structureProblem(schema, '(root)', walk);
  if (problem !== undefined || walk.embeddedResource) return problem;
  const dangling = walk.refs.find(({ ref }) => !resolves(schema, ref, walk.anchors));
  return dangling === undefined ? undefined : `at ${dangling.at}: ${show(dangling.ref)} points to nothing in the schema`;
}
