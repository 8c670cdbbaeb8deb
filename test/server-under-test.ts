// Finding the PostgreSQL and Redis servers the store tests run against. Outside CI a missing
// server skips those tests with one line naming the variable to set; in CI it is a failure.

/** Whether to run the tests of a server, after trying to reach it. */
export interface ServerUnderTest {
  /** The URL tried. */
  url: string;
  /** True when the server answered. */
  reachable: boolean;
}

/**
 * Tries `connect`; on failure outside CI prints one line and reports it unreachable, in CI throws.
 * @param what e.g. `PostgreSQL`; `variable` the environment variable naming the server.
 */
export async function serverUnderTest(what: string, variable: string, fallback: string, connect: (url: string) => Promise<void>): Promise<ServerUnderTest> {
  const url = process.env[variable] || fallback;
  try {
    await connect(url);
    return { url, reachable: true };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (process.env.CI) throw new Error(`${what} is not reachable at ${url} (${reason}); CI needs it: start it, or point ${variable} at one.`);
    console.warn(`Skipping the ${what} store tests: no server at ${url} (${reason}); set ${variable} to run them.`);
    return { url, reachable: false };
  }
}

/** A name no other test run uses: lower-case letters, digits and `_`. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}
