/**
 * `agent-harness/zod3`: zod 3 schemas for tools, typed output and plans. The core takes zod 4
 * schemas (and plain JSON Schema) directly; a zod 3 schema is wrapped here with its JSON Schema,
 * so the zod 3 converter is loaded only by hosts that use zod 3.
 * @packageDocumentation
 */
export { zod3Schema } from './zod3-schema.js';
export type { Zod3Schema, Zod3WithJsonSchema } from '../tools/zod3-with-json-schema.js';
