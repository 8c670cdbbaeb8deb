import { describe, expect, it } from 'vitest';
import { ZodFirstPartyTypeKind } from 'zod/v3';
import { ZodFirstPartyTypeKind as ours } from '../../src/tools/zod3-type-names.js';

describe('zod 3 type names', () => {
  it('are exactly the ones zod/v3 exports, which the build gives zod-to-json-schema in its place', () => {
    expect({ ...ours }).toEqual({ ...ZodFirstPartyTypeKind });
  });
});
