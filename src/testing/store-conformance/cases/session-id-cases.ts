import { MAX_SESSION_ID_BYTES } from '../../../session/assert-session-id.js';
import { check, checkRejects, checkSameJson } from '../check.js';
import type { ConformanceCase } from '../conformance-case.js';
import { entryMaker } from '../conformance-entries.js';
import type { ConformanceSetup } from '../session-store-conformance.js';
import { appendNext, hasCode, loadClean } from '../store-calls.js';

/** Session ids at and past the length every store can keep (bytes of UTF-8). */
export function sessionIdCases({ options, withStore }: ConformanceSetup): ConformanceCase[] {
  return [
    {
      name: `session ids: ${MAX_SESSION_ID_BYTES} bytes of UTF-8 are kept, one byte more is refused with a ConfigurationError naming the length and the limit`,
      run: () =>
        withStore(async ({ store }) => {
          const longest = 's'.repeat(MAX_SESSION_ID_BYTES);
          const make = entryMaker(longest);
          const entries = [make.userText('the longest id')];
          await appendNext(store, longest, entries);
          checkSameJson(await loadClean(store, longest), entries, `load() of a session whose id is ${MAX_SESSION_ID_BYTES} bytes long`);
          checkSameJson(await store.list(), [longest], `list() with a session whose id is ${MAX_SESSION_ID_BYTES} bytes long`);
          if (options.leases) {
            const lease = await store.leases!.acquire(longest, { holder: 'worker-1', ttlMs: 1000 });
            check(lease !== undefined, `leases.acquire() of a free session whose id is ${MAX_SESSION_ID_BYTES} bytes long returned undefined.`);
          }
          await store.delete(longest);

          const isConfiguration = hasCode('configuration');
          const tooLong = 's'.repeat(MAX_SESSION_ID_BYTES + 1);
          const error = await checkRejects(
            store.append(tooLong, [entryMaker(tooLong).userText('x')], { expectedRevision: 0 }),
            isConfiguration,
            `append() to a session id of ${MAX_SESSION_ID_BYTES + 1} bytes should be refused with a ConfigurationError`,
          );
          const message = (error as Error).message;
          check(
            message.includes(String(MAX_SESSION_ID_BYTES + 1)) && message.includes(String(MAX_SESSION_ID_BYTES)),
            `The ConfigurationError for a session id of ${MAX_SESSION_ID_BYTES + 1} bytes should name its length and the limit of ${MAX_SESSION_ID_BYTES}: ${message}`,
          );
          await checkRejects(loadClean(store, tooLong), isConfiguration, `load() of a session id of ${MAX_SESSION_ID_BYTES + 1} bytes should be refused with a ConfigurationError`);
          await checkRejects(store.delete(tooLong), isConfiguration, `delete() of a session id of ${MAX_SESSION_ID_BYTES + 1} bytes should be refused with a ConfigurationError`);
          if (options.leases) {
            await checkRejects(
              store.leases!.acquire(tooLong, { holder: 'worker-1', ttlMs: 1000 }),
              isConfiguration,
              `leases.acquire() of a session id of ${MAX_SESSION_ID_BYTES + 1} bytes should be refused with a ConfigurationError`,
            );
          }
          // Counted in bytes of UTF-8, not in characters: 67 three-byte characters are 201 bytes.
          const wide = '漢'.repeat(Math.ceil((MAX_SESSION_ID_BYTES + 1) / 3));
          await checkRejects(
            store.append(wide, [entryMaker(wide).userText('x')], { expectedRevision: 0 }),
            isConfiguration,
            `append() to a session id of ${wide.length} characters but ${new TextEncoder().encode(wide).length} bytes of UTF-8 should be refused with a ConfigurationError`,
          );
          checkSameJson(await store.list(), [], 'list() after the refused appends');
        }),
    },
  ];
}
