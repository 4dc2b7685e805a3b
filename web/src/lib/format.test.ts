import { describe, expect, it } from 'vitest';
import { formatBytes, formatMinutes, sentence, servingsText, srcSet } from './format';

describe('format', () => {
  it.each([
    [null, null],
    [0, null],
    [5, '5 min'],
    [60, '1 h'],
    [95, '1 h 35 min'],
  ])('minutes %s → %s', (m, s) => expect(formatMinutes(m)).toBe(s));

  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1536, '1.5 KB'],
    [5 * 1024 * 1024, '5.0 MB'],
    [300 * 1024 * 1024, '300 MB'],
  ])('bytes %d → %s', (n, s) => expect(formatBytes(n)).toBe(s));

  it('srcSet lists the renditions the API names, by width', () => {
    expect(srcSet({ medium: '/m.jpg', thumb: '/t.jpg' })).toBe('/t.jpg 320w, /m.jpg 800w');
    expect(srcSet({ medium: '/m.jpg', poster: '/p.jpg' })).toBe('/m.jpg 800w');
    expect(srcSet({})).toBeUndefined();
    expect(srcSet(undefined)).toBeUndefined();
  });
});

describe('servingsText', () => {
  it('says one serving in the singular', () => {
    expect(servingsText(1)).toBe('1 serving');
    expect(servingsText(4)).toBe('4 servings');
  });
});

describe('sentence', () => {
  it('makes a clause from the server a sentence, once', () => {
    expect(sentence('a cookbook cannot include itself, directly or through the cookbooks it includes')).toBe(
      'A cookbook cannot include itself, directly or through the cookbooks it includes.',
    );
    expect(sentence('Already a sentence.')).toBe('Already a sentence.');
    expect(sentence('is it?')).toBe('Is it?');
    expect(sentence('')).toBe('');
  });
});
