import { describe, expect, it } from 'vitest';
import { safeNext } from './nav';

describe('safeNext', () => {
  it.each([
    [null, '/recipes'],
    ['', '/recipes'],
    ['/cookbooks/1', '/cookbooks/1'],
    ['/recipes?q=soup', '/recipes?q=soup'],
    ['//evil.example', '/recipes'],
    ['/\\evil.example', '/recipes'],
    ['https://evil.example', '/recipes'],
    ['javascript:alert(1)', '/recipes'],
  ])('%j → %j', (next, want) => expect(safeNext(next)).toBe(want));
});
