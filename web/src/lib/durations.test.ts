import { describe, expect, it } from 'vitest';
import { findDurations, formatClock } from './durations';

const found = (t: string) => findDurations(t).map((d) => [d.text, d.seconds]);

describe('findDurations', () => {
  it.each([
    ['Simmer for 20 minutes, stirring.', [['20 minutes', 1200]]],
    ['Bake 1 hour.', [['1 hour', 3600]]],
    ['Rest 10–15 min before slicing.', [['10–15 min', 600]]],
    ['Cook 10 to 12 minutes', [['10 to 12 minutes', 600]]],
    ['Braise 1½ hours', [['1½ hours', 5400]]],
    ['Roast for 1 hour 30 minutes', [['1 hour 30 minutes', 5400]]],
    ['Leave for an hour', [['an hour', 3600]]],
    ['Boil 45 seconds, then drain and cook 3 mins more', [['45 seconds', 45], ['3 mins', 180]]],
    ['Proof 2h', [['2h', 7200]]],
    ['Chill 1 1/2 hours', [['1 1/2 hours', 5400]]],
  ])('%s', (text, want) => {
    expect(found(text)).toEqual(want);
  });
  it('ignores numbers that are not durations', () => {
    expect(found('Add 200 g flour and 2 eggs; use a 23 cm tin at 180 °C.')).toEqual([]);
    expect(found('Cut into 2 m lengths')).toEqual([]);
  });
  it('formats the clock', () => {
    expect(formatClock(1200)).toBe('20:00');
    expect(formatClock(3725)).toBe('1:02:05');
    expect(formatClock(-3)).toBe('0:00');
  });
});
