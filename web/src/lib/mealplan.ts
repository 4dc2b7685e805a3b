/**
 * Meal plan API calls and the week arithmetic of the planner page. Dates are plain
 * calendar days (YYYY-MM-DD), computed in the browser's local time: "today" is the
 * cook's today, whatever the server's time zone.
 */
import { api, type Share } from './api';

export type Meal = 'breakfast' | 'lunch' | 'dinner' | 'snack';
export const MEALS: Meal[] = ['breakfast', 'lunch', 'dinner', 'snack'];

export interface PlanRecipe {
  id: string;
  title: string;
  servings: number | null;
  imageUrl: string | null;
  imageVariants?: Record<string, string>;
  totalMinutes: number | null;
}

export interface MealPlan {
  id: string;
  ownerId: string;
  name: string;
  members: Share[];
  createdAt: string;
  updatedAt: string;
}

export interface MealPlanEntry {
  id: string;
  planId: string;
  date: string;
  meal: Meal;
  position: number;
  /** null for a note, and for a recipe the reader can no longer see (recipeUnavailable). */
  recipe: PlanRecipe | null;
  recipeUnavailable: boolean;
  title: string;
  servings: number | null;
  note: string;
}

export interface MealPlanRange {
  plan: MealPlan;
  from: string;
  to: string;
  entries: MealPlanEntry[];
}

export interface EntryInput {
  planId?: string;
  date?: string;
  meal?: Meal;
  recipeId?: string | null;
  title?: string;
  servings?: number | null;
  note?: string;
}

// ---- calendar days

/** The local calendar day of d as YYYY-MM-DD. */
export function isoDay(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** Parses YYYY-MM-DD as a local date (noon, so daylight-saving shifts never change the day). */
export function parseDay(s: string): Date {
  const [y, m, d] = s.split('-').map(Number);
  return new Date(y, m - 1, d, 12);
}

export function addDays(day: string, n: number): string {
  const d = parseDay(day);
  d.setDate(d.getDate() + n);
  return isoDay(d);
}

/** The Monday of day's week (ISO weeks start on Monday). */
export function weekStart(day: string): string {
  const dow = (parseDay(day).getDay() + 6) % 7; // Monday 0 … Sunday 6
  return addDays(day, -dow);
}

/** The seven days from start. */
export function weekDays(start: string): string[] {
  return Array.from({ length: 7 }, (_, i) => addDays(start, i));
}

export function today(now: Date = new Date()): string {
  return isoDay(now);
}

/** Entries by day and meal, in their order, for rendering a grid. */
export function byDayAndMeal(entries: MealPlanEntry[]): Map<string, Map<Meal, MealPlanEntry[]>> {
  const out = new Map<string, Map<Meal, MealPlanEntry[]>>();
  for (const e of entries) {
    let day = out.get(e.date);
    if (!day) out.set(e.date, (day = new Map()));
    const list = day.get(e.meal) ?? [];
    list.push(e);
    day.set(e.meal, list);
  }
  for (const day of out.values()) for (const list of day.values()) list.sort((a, b) => a.position - b.position);
  return out;
}

/** What an entry shows as its name. */
export function entryLabel(e: MealPlanEntry): string {
  if (e.recipe) return e.recipe.title;
  if (e.recipeUnavailable) return 'Recipe no longer available';
  return e.title;
}

// ---- API

export const mealplanApi = {
  range: (from: string, to: string, planId?: string, signal?: AbortSignal) =>
    api.request<MealPlanRange>('GET', '/api/mealplan', { query: { from, to, planId }, signal }),
  plans: (signal?: AbortSignal) => api.request<{ items: MealPlan[] }>('GET', '/api/mealplans', { signal }),
  createPlan: (name: string) => api.request<MealPlan>('POST', '/api/mealplans', { body: { name } }),
  renamePlan: (id: string, name: string) => api.request<MealPlan>('PATCH', `/api/mealplans/${encodeURIComponent(id)}`, { body: { name } }),
  share: (id: string, email: string) => api.request<MealPlan>('POST', `/api/mealplans/${encodeURIComponent(id)}/members`, { body: { email } }),
  unshare: (id: string, userId: string) =>
    api.request<void>('DELETE', `/api/mealplans/${encodeURIComponent(id)}/members/${encodeURIComponent(userId)}`),
  addEntry: (input: EntryInput) => api.request<MealPlanEntry>('POST', '/api/mealplan/entries', { body: input }),
  updateEntry: (id: string, input: EntryInput) =>
    api.request<MealPlanEntry>('PATCH', `/api/mealplan/entries/${encodeURIComponent(id)}`, { body: input }),
  moveEntry: (id: string, date: string, meal: Meal) =>
    api.request<MealPlanEntry>('POST', `/api/mealplan/entries/${encodeURIComponent(id)}/move`, { body: { date, meal } }),
  deleteEntry: (id: string) => api.request<void>('DELETE', `/api/mealplan/entries/${encodeURIComponent(id)}`),
};

const PLAN_KEY = 'larder.mealplan';

/** The plan the planner opened last on this device ("" for the default plan). */
export function storedPlanId(): string {
  try {
    return localStorage.getItem(PLAN_KEY) ?? '';
  } catch {
    return '';
  }
}

export function storePlanId(id: string) {
  try {
    localStorage.setItem(PLAN_KEY, id);
  } catch {
    // Private mode: the default plan it is.
  }
}
