/** A clock that moves only when told: leases expire without anyone waiting. */
export interface ManualClock {
  /** The current time, epoch milliseconds. Pass it to the store as its clock. */
  now: () => number;
  /** Moves the clock forward. */
  advance: (ms: number) => void;
}

/** A manual clock starting at `start` (epoch milliseconds). */
export function manualClock(start = Date.UTC(2027, 0, 1)): ManualClock {
  let time = start;
  return {
    now: () => time,
    advance: (ms) => {
      time += ms;
    },
  };
}
