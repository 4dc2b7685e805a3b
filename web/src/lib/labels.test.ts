import { describe, expect, it } from 'vitest';
import { labelWithCount, withSelected } from './labels';

describe('category and tag menus', () => {
  const served = [
    { name: 'Dinner', count: 20 },
    { name: 'Soup', count: 3 },
  ];
  it('are the served list, whatever is selected from it', () => {
    expect(withSelected(served, '')).toEqual(served);
    expect(withSelected(served, 'dinner')).toEqual(served);
  });
  it('keep a selected name the list lacks', () => {
    expect(withSelected(served, 'Brunch').map((t) => t.name)).toEqual(['Brunch', 'Dinner', 'Soup']);
  });
  it('show counts', () => {
    expect(served.map(labelWithCount)).toEqual(['Dinner (20)', 'Soup (3)']);
    expect(labelWithCount({ name: 'Brunch', count: 0 })).toBe('Brunch');
  });
});
