import { describe, expect, it } from 'vitest';
import { addDays, byDayAndMeal, entryLabel, isoDay, weekDays, weekStart, type MealPlanEntry } from './mealplan';

const entry = (over: Partial<MealPlanEntry>): MealPlanEntry => ({
  id: 'e',
  planId: 'p',
  date: '2026-03-02',
  meal: 'dinner',
  position: 0,
  recipe: null,
  recipeUnavailable: false,
  title: '',
  servings: null,
  note: '',
  ...over,
});

describe('weeks', () => {
  it('start on Monday', () => {
    expect(weekStart('2026-03-04')).toBe('2026-03-02'); // a Wednesday
    expect(weekStart('2026-03-08')).toBe('2026-03-02'); // the Sunday
    expect(weekStart('2026-03-02')).toBe('2026-03-02');
  });
  it('cross months, years and daylight-saving changes', () => {
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30'); // EU clocks change on the 29th
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(weekDays('2026-12-28')).toEqual(['2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02', '2027-01-03']);
  });
  it('formats local days', () => {
    expect(isoDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});

describe('entries', () => {
  it('group by day and meal in position order', () => {
    const g = byDayAndMeal([entry({ id: 'b', position: 1 }), entry({ id: 'a', position: 0 }), entry({ id: 'c', meal: 'lunch' })]);
    expect(g.get('2026-03-02')?.get('dinner')?.map((e) => e.id)).toEqual(['a', 'b']);
    expect(g.get('2026-03-02')?.get('lunch')?.length).toBe(1);
  });
  it('name an unavailable recipe without anything of it', () => {
    expect(entryLabel(entry({ recipeUnavailable: true }))).toBe('Recipe no longer available');
    expect(entryLabel(entry({ title: 'Leftovers' }))).toBe('Leftovers');
  });
});
