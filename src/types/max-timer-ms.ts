/**
 * The longest delay `setTimeout` waits: 2^31-1 ms, about 24.8 days. Node fires a longer one
 * after 1 ms (with a warning), so a "practically never" timeout must be checked against it.
 */
export const MAX_TIMER_MS = 2_147_483_647;
