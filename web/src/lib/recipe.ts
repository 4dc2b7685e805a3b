import { useSearchParams } from 'react-router';
import type { Recipe, RecipeInput } from './api';
import { factorFor, scaleIngredient, type ScalableIngredient } from './scaling';

/** The PUT body that leaves a recipe as it is (item ids kept, so mappings survive). */
export function recipeToInput(r: Recipe): RecipeInput {
  return {
    title: r.title,
    description: r.description ?? '',
    servings: r.servings,
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

/**
 * What the recipe page states under "Serves": the servings its lines are written for, so the page (and
 * its print, where the servings buttons are hidden) never says one number while the lines are scaled
 * to another; the recipe's own servings follow when they differ. Null when the recipe states none.
 */
export function servesText(base: number | null, servings: number): string | null {
  if (base == null || base <= 0) return null;
  return servings === base ? String(base) : `${servings} (scaled from ${base})`;
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
