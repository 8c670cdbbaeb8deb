import { describe, expect, it, vi } from 'vitest';
import { LoadingStop } from '../../src/tool-sources/loading-stop.js';

describe('LoadingStop', () => {
  it('calls its listener once, when stopped', () => {
    const stop = new LoadingStop();
    const onStop = vi.fn();
    stop.listen(onStop);
    expect(onStop).not.toHaveBeenCalled();
    stop.stop();
    stop.stop();
    expect(onStop).toHaveBeenCalledTimes(1);
    expect(stop.stopped).toBe(true);
  });

  it('calls a listener given after the stop at once', () => {
    const stop = new LoadingStop();
    stop.stop();
    const onStop = vi.fn();
    stop.listen(onStop);
    expect(onStop).toHaveBeenCalledTimes(1);
  });

  it('forgets a listener taken back: loading that ended is not stopped by a later close()', () => {
    const stop = new LoadingStop();
    const onStop = vi.fn();
    stop.listen(onStop);
    stop.listen(undefined);
    stop.stop();
    expect(onStop).not.toHaveBeenCalled();
  });
});
