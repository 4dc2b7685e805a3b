// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { isDone, loadTimers, remaining, saveTimers, startTimer } from './timers';

describe('timers', () => {
  it('count from their end time, so a locked screen or a sleeping tab loses nothing', () => {
    const t0 = Date.UTC(2026, 0, 1, 18, 0, 0);
    const t = startTimer('Simmer', 20 * 60, t0);
    expect(remaining(t, t0)).toBe(1200);
    // The phone slept for 19 minutes: no tick ran, the time left is still right.
    expect(remaining(t, t0 + 19 * 60_000)).toBe(60);
    expect(isDone(t, t0 + 19 * 60_000)).toBe(false);
    expect(isDone(t, t0 + 20 * 60_000)).toBe(true);
    expect(remaining(t, t0 + 25 * 60_000)).toBe(0);
  });
  it('are kept per recipe across a reload', () => {
    const a = startTimer('Rest', 600, 1000);
    const b = startTimer('Bake', 3600, 1000);
    saveTimers('r1', [a, b]);
    expect(loadTimers('r1')).toEqual([a, b]);
    expect(loadTimers('r2')).toEqual([]);
    saveTimers('r1', []);
    expect(loadTimers('r1')).toEqual([]);
  });
});
