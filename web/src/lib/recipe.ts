import { useSearchParams } from 'react-router';
import type { Recipe, RecipeInput, RecipeSummary } from './api';
import { servingsText } from './format';
import { factorFor, formFor, scaleIngredient, type ScalableIngredient } from './scaling';

/** The PUT body that leaves a recipe as it is (item ids kept, so mappings survive). */
export function recipeToInput(r: Recipe): RecipeInput {
  return {
    title: r.title,
    description: r.description ?? '',
    servings: r.servings,
    servingsUnit: r.servingsUnit ?? '',
    prepMinutes: r.prepMinutes,
    cookMinutes: r.cookMinutes,
    totalMinutes: r.totalMinutes,
    sourceUrl: r.sourceUrl ?? '',
    visibility: r.visibility,
    categories: r.categories ?? [],
    tags: r.tags ?? [],
    ingredientSections: (r.ingredientSections ?? []).map((s) => ({
      name: s.name,
      ingredients: s.ingredients.map((i) => ({ id: i.id, text: i.text })),
    })),
    instructionSections: (r.instructionSections ?? []).map((s) => ({
      name: s.name,
      steps: s.steps.map((i) => ({ id: i.id, text: i.text })),
    })),
  };
}

/** Writes an ingredient line at the servings chosen. */
export type ScaledLine = (ingredient: ScalableIngredient) => string;

/**
 * The one way a page writes ingredient lines at chosen servings: the recipe page (and its print) and
 * cooking mode both show scaledAt(recipe's servings, chosen)(ingredient), so they read the same.
 */
export function scaledAt(base: number | null, servings: number): ScaledLine {
  const factor = factorFor(base, servings);
  return (ingredient) => scaleIngredient(ingredient, factor);
}

/** What a recipe makes: its servings, and their unit when not people with the unit's agreeing word (RecipeSummary's). */
export interface Yield {
  servings: number | null;
  servingsUnit?: RecipeSummary['servingsUnit'];
  servingsUnitWord?: RecipeSummary['servingsUnitWord'];
}

/**
 * The recipe's servings unit written for n ("loaf" at 1, "loaves" at 2): the word the server marks as
 * agreeing with the number takes the form for n; the rest, and a unit without such a word (another
 * language), stay as written. '' for people.
 */
export function unitFor(y: Yield, n: number): string {
  const unit = y.servingsUnit ?? '';
  const w = y.servingsUnitWord;
  return unit && w ? unit.slice(0, w.start) + formFor(w, n) + unit.slice(w.end) : unit;
}

/** n of what the recipe makes: "18 cookies", or "4 servings" when it serves people. */
export function yieldCount(y: Yield, n: number): string {
  const unit = unitFor(y, n);
  return unit ? `${n} ${unit}` : servingsText(n);
}

/**
 * What the recipe page states for its yield: "Serves" people or "Makes" its unit, with the servings its
 * lines are written for, so the page (and its print, where the servings buttons are hidden) never says
 * one number while the lines are scaled to another; the recipe's own servings follow when they differ
 * ("Makes 18 cookies (scaled from 12)"). Null when the recipe states none.
 */
export function servesText(y: Yield, servings: number): { label: 'Serves' | 'Makes'; text: string } | null {
  const base = y.servings;
  if (base == null || base <= 0) return null;
  const unit = unitFor(y, servings);
  const count = unit ? `${servings} ${unit}` : String(servings);
  return { label: unit ? 'Makes' : 'Serves', text: servings === base ? count : `${count} (scaled from ${base})` };
}

/**
 * The servings chosen in the URL (?servings=), else the recipe's own (or factor 1), their setter, and
 * the lines written at them (scaledAt).
 */
export function useServings(recipe: Recipe | undefined): [number, (v: number) => void, ScaledLine] {
  const [params, setParams] = useSearchParams();
  const base = recipe?.servings ?? null;
  const fromUrl = Number(params.get('servings'));
  const value = Number.isFinite(fromUrl) && fromUrl > 0 ? fromUrl : (base ?? 1);
  const set = (v: number) =>
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        if (v === (base ?? 1)) p.delete('servings');
        else p.set('servings', String(v));
        return p;
      },
      { replace: true },
    );
  return [value, set, scaledAt(base, value)];
}


export interface FlatStep {
  id: string;
  text: string;
  section: string;
  /** 1-based number across all sections. */
  number: number;
}

/** All steps in order, each with its section's name. */
export function flattenSteps(recipe: Pick<Recipe, 'instructionSections'>): FlatStep[] {
  const out: FlatStep[] = [];
  for (const s of recipe.instructionSections ?? []) {
    for (const st of s.steps) out.push({ id: st.id, text: st.text, section: s.name, number: out.length + 1 });
  }
  return out;
}

/** Ingredient ids by step id, from the mapping pairs. */
export function ingredientsByStep(mappings: Array<{ ingredientId: string; stepId: string }>): Map<string, Set<string>> {
  const m = new Map<string, Set<string>>();
  for (const { ingredientId, stepId } of mappings) {
    let set = m.get(stepId);
    if (!set) m.set(stepId, (set = new Set()));
    set.add(ingredientId);
  }
  return m;
}
