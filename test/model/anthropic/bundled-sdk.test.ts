import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../../temp-dirs.js';

const tempDir = tempDirs();

const root = path.resolve(import.meta.dirname, '../../..');

// A host that bundles its app with esbuild (tsup, Vite SSR, serverless bundlers) renames the SDK's
// classes (APIError2, or one-letter names with --minify). mapAnthropicError matches constructor.name.
describe('mapAnthropicError with a bundled SDK', () => {
  for (const minify of [false, true]) {
    it(`a 400 from a bundled${minify ? ' + minified' : ''} SDK keeps status 400 and is not retryable`, () => {
      const dir = tempDir('review-bundle-');
      const entry = path.join(dir, 'entry.ts');
      writeFileSync(
        entry,
        `import { APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { mapAnthropicError } from ${JSON.stringify(path.join(root, 'src/model/anthropic/map-anthropic-error.ts'))};
const e = APIError.generate(400, { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } }, 'bad', new Headers({ 'request-id': 'req_1' }));
const m = mapAnthropicError(e);
const a = mapAnthropicError(new APIUserAbortError());
console.log(JSON.stringify({ status: m.status, errorType: m.errorType ?? null, retryable: m.retryable, abort: a.errorType ?? null }));`,
      );
      const out = path.join(dir, 'out.mjs');
      execFileSync(
        path.join(root, 'node_modules/.bin/esbuild'),
        [entry, '--bundle', '--platform=node', '--format=esm', `--outfile=${out}`, '--log-level=error', ...(minify ? ['--minify'] : [])],
        { env: { ...process.env, NODE_PATH: path.join(root, 'node_modules') } },
      );
      const result = JSON.parse(execFileSync(process.execPath, [out], { encoding: 'utf8' })) as Record<string, unknown>;
      expect(result).toEqual({ status: 400, errorType: 'invalid_request_error', retryable: false, abort: 'aborted' });
    });
  }
});
