import { api, type Recipe } from './api';
import { recipeHeroSizes, srcSet } from './format';
import { mayHaveSession } from './sessionHint';

/**
 * Answers started before the screen that reads them has loaded (see preloadScreen in App.tsx):
 * the app opening on a recipe reads it while the recipe screen's code is still on its way.
 * They are for the first screen only: the first take empties the store, so nothing read at start
 * is served later, stale.
 */
let started = new Map<string, Promise<unknown>>();

function prefetch(key: string, load: () => Promise<unknown>) {
  if (started.has(key)) return;
  const p = load();
  // Its failure is the screen's to show when it takes the answer; not an unhandled rejection.
  p.catch(() => {});
  started.set(key, p);
}

/** The answer started for key at start, once; undefined when there is none (then read it now). */
export function takePrefetched<T>(key: string): Promise<T> | undefined {
  const p = started.get(key) as Promise<T> | undefined;
  started = new Map();
  return p;
}

export const recipeKey = (id: string) => `recipe:${id}`;

/**
 * Reads the recipe as the screen will: after the session is restored when there may be one (the
 * client shares one refresh between this and the AuthProvider's restore), anonymously otherwise.
 * withPhoto also asks for its photo as soon as the address is known (the recipe page leads with
 * it), in the size the page will pick, rather than once the page has rendered.
 */
export function prefetchRecipe(id: string, opts: { withPhoto?: boolean } = {}) {
  // A visitor on a public recipe's page: the recipe is in the page already.
  if (writtenRecipe(id)) return;
  prefetch(recipeKey(id), async () => {
    if (mayHaveSession()) await api.restoreSession();
    const recipe = await api.getRecipe(id);
    if (opts.withPhoto) preloadPhoto(recipe.imageUrl, recipe.imageVariants);
    return recipe;
  });
}

/** The recipe block of the page, parsed once (see writtenRecipe). */
let written: { id: string; recipe: Recipe } | null | undefined;

/**
 * The recipe the server wrote into a public recipe's page (handlers/recipe_page.go), as the API
 * answers a visitor, when it is the recipe id and this browser holds no session (a cook who may be
 * signed in reads the recipe through the API, as their view of it may differ). The recipe page
 * takes it to render at once (its first paint is the recipe, with no round trip to the API);
 * once taken, a later visit to the page reads the recipe through the API.
 */
export function writtenRecipe(id: string, opts: { take?: boolean } = {}): Recipe | undefined {
  if (written === undefined) {
    written = null;
    const el = typeof document === 'undefined' ? null : document.getElementById('recipe-data');
    if (el?.dataset.id) {
      try {
        written = { id: el.dataset.id, recipe: JSON.parse(el.textContent ?? '') as Recipe };
      } catch {
        // unreadable: the API is asked as usual
      }
      el.remove();
    }
  }
  const recipe = written && written.id === id && !mayHaveSession() ? written.recipe : undefined;
  if (recipe && opts.take) written = null;
  return recipe;
}

function preloadPhoto(src: string | null | undefined, variants: Record<string, string> | undefined) {
  if (!src || typeof document === 'undefined') return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = src;
  const set = srcSet(variants);
  if (set) {
    link.imageSrcset = set;
    link.imageSizes = recipeHeroSizes;
  }
  link.fetchPriority = 'high';
  document.head.append(link);
}
