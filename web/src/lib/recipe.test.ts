import { describe, expect, it } from 'vitest';
import { flattenSteps, ingredientsByStep, recipeToInput, scaledAt, servesText, unitFor, yieldCount } from './recipe';
import type { Recipe } from './api';
import { fromDrafts, moveItem, moveSection, toDrafts, type SectionDraft } from '../components/SectionsEditor';

const recipe: Recipe = {
  id: 'r1',
  ownerId: 'u1',
  title: 'Pie',
  description: '',
  servings: 8,
  servingsUnit: '',
  servingsUnitWord: null,
  prepMinutes: 20,
  cookMinutes: 45,
  totalMinutes: 65,
  sourceUrl: '',
  imageUrl: null,
  imageVariants: {},
  visibility: 'PRIVATE',
  categories: ['Dessert'],
  tags: ['baking'],
  ingredientSections: [
    { name: 'Crust', ingredients: [{ id: 'i1', text: '2 cups flour' }] },
    { name: 'Filling', ingredients: [{ id: 'i2', text: '6 apples' }] },
  ],
  instructionSections: [
    { name: 'Crust', steps: [{ id: 's1', text: 'Mix.' }, { id: 's2', text: 'Roll.' }] },
    { name: 'Filling', steps: [{ id: 's3', text: 'Slice.' }] },
  ],
  createdAt: '',
  updatedAt: '',
};

describe('recipe helpers', () => {
  it('recipeToInput keeps item ids so mappings survive an edit', () => {
    const input = recipeToInput(recipe);
    expect(input.ingredientSections?.[1]?.ingredients?.[0]).toEqual({ id: 'i2', text: '6 apples' });
    expect(input.instructionSections?.[0]?.steps?.map((s) => s.id)).toEqual(['s1', 's2']);
    expect(input).not.toHaveProperty('id');
    expect(input).not.toHaveProperty('imageUrl');
  });

  it('flattenSteps numbers steps across sections', () => {
    expect(flattenSteps(recipe).map((s) => [s.number, s.id, s.section])).toEqual([
      [1, 's1', 'Crust'],
      [2, 's2', 'Crust'],
      [3, 's3', 'Filling'],
    ]);
  });

  it('ingredientsByStep groups mapping pairs', () => {
    const m = ingredientsByStep([
      { ingredientId: 'i1', stepId: 's1' },
      { ingredientId: 'i2', stepId: 's1' },
      { ingredientId: 'i2', stepId: 's3' },
    ]);
    expect([...m.get('s1')!]).toEqual(['i1', 'i2']);
    expect(m.get('s2')).toBeUndefined();
  });
});

describe('scaledAt', () => {
  // The recipe page and cooking mode write lines through it; the spans are what the API gives.
  const flour = {
    text: '2 cups flour',
    amounts: [{ start: 0, end: 1, value: 2, style: 'integer' as const, word: { start: 2, end: 6, one: 'cup', other: 'cups' } }],
  };
  it('writes a line at the chosen servings of the recipe', () => {
    expect(scaledAt(8, 4)(flour)).toBe('1 cup flour');
    expect(scaledAt(8, 12)(flour)).toBe('3 cups flour');
    expect(scaledAt(8, 8)(flour)).toBe('2 cups flour');
  });
  it('takes the chosen number as the factor when the recipe states no servings', () => {
    expect(scaledAt(null, 2)(flour)).toBe('4 cups flour');
    expect(scaledAt(null, 0)(flour)).toBe('2 cups flour');
  });
});

describe('servesText', () => {
  // The page states the servings its lines are written for; the recipe's own follow when scaled.
  const people = (servings: number | null) => ({ servings, servingsUnit: '', servingsUnitWord: null });
  it('states the recipe\'s servings when not scaled', () => {
    expect(servesText(people(4), 4)).toEqual({ label: 'Serves', text: '4' });
    expect(servesText(people(12), 12)).toEqual({ label: 'Serves', text: '12' });
  });
  it('states the chosen servings and the recipe\'s own when scaled', () => {
    expect(servesText(people(4), 2)).toEqual({ label: 'Serves', text: '2 (scaled from 4)' });
    expect(servesText(people(4), 1)).toEqual({ label: 'Serves', text: '1 (scaled from 4)' });
    expect(servesText(people(12), 30)).toEqual({ label: 'Serves', text: '30 (scaled from 12)' });
  });
  it('states nothing when the recipe states no servings (the control is a multiplier then)', () => {
    expect(servesText(people(null), 2)).toBeNull();
    expect(servesText(people(0), 1)).toBeNull();
  });

  // A yield that is not people says what the recipe makes, its unit's word in the form the server gives
  // for the number shown.
  const cookies = { servings: 12, servingsUnit: 'cookies', servingsUnitWord: { start: 0, end: 7, one: 'cookie', other: 'cookies' } };
  const loaf = { servings: 1, servingsUnit: 'small loaf', servingsUnitWord: { start: 6, end: 10, one: 'loaf', other: 'loaves' } };
  it('makes its unit, scaled or not', () => {
    expect(servesText(cookies, 12)).toEqual({ label: 'Makes', text: '12 cookies' });
    expect(servesText(cookies, 18)).toEqual({ label: 'Makes', text: '18 cookies (scaled from 12)' });
    expect(servesText(cookies, 1)).toEqual({ label: 'Makes', text: '1 cookie (scaled from 12)' });
    expect(servesText(loaf, 2)).toEqual({ label: 'Makes', text: '2 small loaves (scaled from 1)' });
  });
  it('writes a unit without forms as written', () => {
    const jars = { servings: 6, servingsUnit: 'Gläser', servingsUnitWord: null };
    expect(servesText(jars, 1)).toEqual({ label: 'Makes', text: '1 Gläser (scaled from 6)' });
    expect(unitFor(jars, 3)).toBe('Gläser');
  });
  it('counts people as servings and a unit by its own word', () => {
    expect(yieldCount(people(4), 4)).toBe('4 servings');
    expect(yieldCount(people(4), 1)).toBe('1 serving');
    expect(yieldCount(loaf, 1)).toBe('1 small loaf');
    expect(yieldCount(cookies, 24)).toBe('24 cookies');
    expect(unitFor(people(4), 2)).toBe('');
  });
});

describe('section drafts', () => {
  const drafts = (): SectionDraft[] =>
    toDrafts(recipe.ingredientSections.map((s) => ({ name: s.name, items: s.ingredients })));

  it('round-trips ids and drops blanks', () => {
    const d = drafts();
    d[0].items.push({ key: 'x', text: '   ' });
    d.push({ key: 'y', name: '', items: [] });
    expect(fromDrafts(d)).toEqual([
      { name: 'Crust', items: [{ id: 'i1', text: '2 cups flour' }] },
      { name: 'Filling', items: [{ id: 'i2', text: '6 apples' }] },
    ]);
  });

  it('a new recipe starts with one empty simple section', () => {
    const d = toDrafts([]);
    expect(d).toHaveLength(1);
    expect(d[0].name).toBe('');
    expect(fromDrafts(d)).toEqual([]);
  });

  it('moves items within and across sections', () => {
    const d = drafts();
    const down = moveItem(d, 0, 0, 1);
    expect(down[0].items).toHaveLength(0);
    expect(down[1].items.map((i) => i.id)).toEqual(['i1', 'i2']);
    const up = moveItem(down, 1, 1, -1);
    expect(up[1].items.map((i) => i.id)).toEqual(['i2', 'i1']);
    expect(moveItem(d, 0, 0, -1)).toBe(d);
    expect(moveItem(d, 1, 0, 1)).toBe(d);
  });

  it('moves sections', () => {
    const d = drafts();
    expect(moveSection(d, 0, 1).map((s) => s.name)).toEqual(['Filling', 'Crust']);
    expect(moveSection(d, 0, -1)).toBe(d);
  });
});
