import { describe, expect, it } from 'vitest';
import { formatAmount, formFor, readable, scaleIngredient, type AmountStyle, type IngredientAmount } from './scaling';

// The spans here are written by hand in the shape the API gives; the shared vectors
// (scaling.vectors.test.ts) run the real reader's output.

describe('formatAmount', () => {
  it.each([
    // Readable fractions within 2%, whole numbers plain.
    [1.5, 'integer', '1 1/2'],
    [2 / 3, 'ascii-fraction', '2/3'],
    [3, 'ascii-fraction', '3'],
    [0.125, 'integer', '1/8'],
    [83 + 1 / 3, 'integer', '83 1/3'],
    [1.02, 'integer', '1'],
    [0.99, 'integer', '1'],
    // Else two decimals at most, half up, trailing zeros dropped; the same rule at every size.
    [1.2, 'integer', '1.2'],
    [5 / 12, 'integer', '0.42'],
    [0.875, 'integer', '0.88'],
    [1 / 6, 'ascii-fraction', '0.17'],
    [2.005, 'integer', '2'],
    // Styles of the input number.
    [1.5, 'unicode', '1½'],
    [0.75, 'unicode', '¾'],
    [1.5, 'unicode-spaced', '1 ½'],
    [0.5, 'unicode-spaced', '½'],
    [2.25, 'hyphen-fraction', '2-1/4'],
    [0.25, 'hyphen-fraction', '1/4'],
    [1 / 3, 'fraction-slash', '1\u20443'],
    [1.5, 'fraction-slash', '1 1\u20442'],
    [1 / 6, 'unicode', '0.17'],
    // A decimal input stays decimal when the result is exact in two places.
    [2.25, 'decimal', '2.25'],
    [1.5, 'decimal', '1.5'],
    [3, 'decimal', '3'],
    [2.25, 'decimal-comma', '2,25'],
    [0.5, 'decimal-comma', '0,5'],
    // Not exact: the general rule.
    [1.125, 'decimal', '1 1/8'],
    [0.8333333, 'decimal-comma', '0,83'],
  ] as Array<[number, AmountStyle, string]>)('%d as %s → %j', (value, style, expected) => {
    expect(formatAmount(value, style).text).toBe(expected);
  });

  it('keeps a trace amount', () => {
    expect(formatAmount(0.001, 'integer').text).toBe('0.001');
  });
});

describe('readable', () => {
  it.each([
    [0.5, [0, 1, 2]],
    [0.34, [0, 1, 3]],
    [0.66, [0, 2, 3]],
    [1.98, [2, 0, 1]],
    [7.5, [7, 1, 2]],
    [250.4, [250, 1, 3]],
  ] as const)('%d → %j', (value, expected) => {
    expect(readable(value)).toEqual(expected);
  });

  it.each([0.1, 1.1, 0.9, 0, -1, Number.NaN])('%d has none', (value) => {
    expect(readable(value)).toBeNull();
  });
});

describe('formFor', () => {
  const cup = { one: 'cup', other: 'cups' };
  it.each([
    [2, 'cups'],
    [1.5, 'cups'],
    [1, 'cup'],
    [0.5, 'cup'],
  ] as const)('%d → %s', (n, expected) => {
    expect(formFor(cup, n)).toBe(expected);
  });
});

const cupMilk: { text: string; amounts: IngredientAmount[] } = {
  text: '1 cup (240 ml) milk',
  amounts: [
    { start: 0, end: 1, value: 1, style: 'integer', unit: { start: 2, end: 5, key: 'cup' }, word: { start: 2, end: 5, one: 'cup', other: 'cups' } },
    { start: 7, end: 10, value: 240, style: 'integer', unit: { start: 11, end: 13, key: 'ml' } },
  ],
};

describe('scaleIngredient', () => {
  it('rewrites every span and writes the unit in the form the server gives', () => {
    expect(scaleIngredient(cupMilk, 2)).toBe('2 cups (480 ml) milk');
    expect(scaleIngredient(cupMilk, 0.5)).toBe('1/2 cup (120 ml) milk');
  });

  it('scales both ends of a range and keeps the text between them', () => {
    const ing = {
      text: '½ – 1 tsp salt',
      amounts: [{ start: 0, end: 5, value: 0.5, style: 'unicode', valueEnd: 1, max: 1, maxStart: 4, maxStyle: 'integer' } as IngredientAmount],
    };
    expect(scaleIngredient(ing, 3)).toBe('1½ – 3 tsp salt');
  });

  it('counts surrogate pairs as two code units, as the API does', () => {
    const ing = { text: '🥚 2 eggs', amounts: [{ start: 3, end: 4, value: 2, style: 'integer', word: { start: 5, end: 9, one: 'egg', other: 'eggs' } } as IngredientAmount] };
    expect(scaleIngredient(ing, 0.5)).toBe('🥚 1 egg');
  });

  it('changes a word only when the amount crosses 1', () => {
    const ing = { text: '2 Cups flour', amounts: [{ start: 0, end: 1, value: 2, style: 'integer', word: { start: 2, end: 6, one: 'Cup', other: 'Cups' } } as IngredientAmount] };
    expect(scaleIngredient(ing, 0.5)).toBe('1 Cup flour');
    expect(scaleIngredient(ing, 0.75)).toBe('1 1/2 Cups flour');
    expect(scaleIngredient(ing, 3)).toBe('6 Cups flour');
    // As written, even when the writer's form disagrees with the number: only a crossing changes it.
    const odd = { text: '½ cups milk', amounts: [{ start: 0, end: 1, value: 0.5, style: 'unicode', word: { start: 2, end: 6, one: 'cup', other: 'cups' } } as IngredientAmount] };
    expect(scaleIngredient(odd, 1.5)).toBe('¾ cups milk');
  });

  it('keeps every word the server gives no forms for', () => {
    const ing = { text: '1 litre de lait', amounts: [{ start: 0, end: 1, value: 1, style: 'integer', unit: { start: 2, end: 7, key: 'l' } } as IngredientAmount] };
    expect(scaleIngredient(ing, 2)).toBe('2 litre de lait');
  });

  it('makes each unit of a range written with two agree with its own number', () => {
    const ing = {
      text: '1 cup to 1 1/2 cups milk',
      amounts: [
        {
          start: 0, end: 14, value: 1, style: 'integer', valueEnd: 1, max: 1.5, maxStart: 9, maxStyle: 'ascii-fraction',
          valueUnit: { start: 2, end: 5, key: 'cup' }, unit: { start: 15, end: 19, key: 'cup' },
          valueWord: { start: 2, end: 5, one: 'cup', other: 'cups' }, word: { start: 15, end: 19, one: 'cup', other: 'cups' },
        } as IngredientAmount,
      ],
    };
    expect(scaleIngredient(ing, 2)).toBe('2 cups to 3 cups milk');
    expect(scaleIngredient(ing, 0.5)).toBe('1/2 cup to 3/4 cup milk');
  });

  it('keeps what joins a mixed number as written', () => {
    const and = { text: '1 and 1/2 cups water', amounts: [{ start: 0, end: 9, value: 1.5, style: 'ascii-fraction' } as IngredientAmount] };
    expect(scaleIngredient(and, 1.5)).toBe('2 and 1/4 cups water');
    const nbsp = { text: '1\u00a0½ cups water', amounts: [{ start: 0, end: 3, value: 1.5, style: 'unicode-spaced' } as IngredientAmount] };
    expect(scaleIngredient(nbsp, 1.5)).toBe('2\u00a0¼ cups water');
    const plain = { text: '2 cups water', amounts: [{ start: 0, end: 1, value: 2, style: 'integer' } as IngredientAmount] };
    expect(scaleIngredient(plain, 0.75)).toBe('1 1/2 cups water');
  });

  it.each([1, 0, -1, Number.NaN, Number.POSITIVE_INFINITY])('returns the text as is at factor %d', (f) => {
    expect(scaleIngredient(cupMilk, f)).toBe(cupMilk.text);
  });

  it('returns a line without amounts as is', () => {
    expect(scaleIngredient({ text: 'salt to taste', amounts: [] }, 3)).toBe('salt to taste');
    expect(scaleIngredient({ text: '2 eggs' }, 3)).toBe('2 eggs');
  });

  it('skips spans outside the text rather than garbling it', () => {
    const ing = { text: '2 eggs', amounts: [{ start: 4, end: 40, value: 2, style: 'integer' } as IngredientAmount] };
    expect(scaleIngredient(ing, 2)).toBe('2 eggs');
  });
});
