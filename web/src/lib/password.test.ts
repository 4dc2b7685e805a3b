import { describe, expect, it } from 'vitest';
import { passwordChecks, passwordOk } from './password';

describe('password rule', () => {
  it.each([
    ['', false],
    ['short1A', false],
    ['alllowercase1', false],
    ['ALLUPPERCASE1', false],
    ['NoNumbersHere', false],
    ['Passw0rd', true],
    ['Ünïcödé9x', true],
    ['A1' + 'a'.repeat(70), true],
    ['A1' + 'a'.repeat(71), false],
  ])('%j ok=%s', (pw, ok) => {
    expect(passwordOk(pw)).toBe(ok);
  });

  it('names each unmet part', () => {
    const unmet = passwordChecks('abc').filter((c) => !c.ok).map((c) => c.id);
    expect(unmet).toEqual(['length', 'upper', 'number']);
  });
});
