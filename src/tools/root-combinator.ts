/** The keywords the Messages API refuses at the top level of a tool's `input_schema`. */
const ROOT_COMBINATORS = ['oneOf', 'anyOf', 'allOf'] as const;

/**
 * The first of `oneOf`, `anyOf` and `allOf` at the top level of a tool's input schema, or
 * undefined. The Messages API refuses every request whose tool has one there ("input_schema does
 * not support oneOf, allOf, or anyOf at the top level"); nested ones are fine.
 */
export function rootCombinator(schema: unknown): (typeof ROOT_COMBINATORS)[number] | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined;
  return ROOT_COMBINATORS.find((keyword) => Object.hasOwn(schema, keyword));
}
