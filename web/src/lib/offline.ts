/**
 * Recipes kept for use without a network. The service worker (src/sw.ts) answers recipe and image
 * requests from the network, then from the recipes opened before (a bounded cache), then from the
 * kept cache filled here, which nothing expires: a recipe the cook marked "keep offline" opens in a
 * kitchen without signal however many others were opened since.
 */
export const KEPT_CACHE = 'larder-kept-recipes';
/** Recipes and images opened before (the service worker's runtime caches). */
export const OPENED_CACHES = ['larder-recipes', 'larder-images'];

/** The addresses a recipe page and its cooking mode read. */
export function recipeUrls(id: string, imageUrls: (string | null | undefined)[]): string[] {
  const base = `/api/recipes/${encodeURIComponent(id)}`;
  return [base, `${base}/mappings`, ...imageUrls.filter((u): u is string => !!u)];
}

function available(): boolean {
  return typeof caches !== 'undefined';
}

/** Whether the recipe is kept. */
export async function isKept(id: string): Promise<boolean> {
  if (!available()) return false;
  const c = await caches.open(KEPT_CACHE);
  return (await c.match(`/api/recipes/${encodeURIComponent(id)}`)) !== undefined;
}

/**
 * Keeps the recipe: fetches its addresses now (with the caller's token for the API ones) and
 * stores the answers. The recipe itself must be read, or nothing is kept; its step mapping and
 * images are kept when they can be read.
 */
export async function keep(id: string, imageUrls: (string | null | undefined)[], token: string | null): Promise<void> {
  if (!available()) throw new Error('This browser cannot keep pages offline.');
  const [main, ...rest] = recipeUrls(id, imageUrls);
  const get = (u: string) => fetch(u, { headers: u.startsWith('/api/') && token ? { Authorization: `Bearer ${token}` } : {} });
  const first = await get(main);
  if (!first.ok) throw new Error(`The recipe could not be read to keep it (status ${first.status}).`);
  const others = await Promise.all(rest.map((u) => get(u).then((r) => [u, r] as const, () => null)));
  const c = await caches.open(KEPT_CACHE);
  await c.put(main, first);
  await Promise.all(others.map((a) => (a && a[1].ok ? c.put(a[0], a[1]) : undefined)));
}

/** Stops keeping the recipe. */
export async function unkeep(id: string, imageUrls: (string | null | undefined)[]): Promise<void> {
  if (!available()) return;
  const c = await caches.open(KEPT_CACHE);
  await Promise.all(recipeUrls(id, imageUrls).map((u) => c.delete(u)));
}

/** Forgets every stored recipe (on sign-out: the next person on this device must not read them). */
export async function forgetAll(): Promise<void> {
  if (!available()) return;
  await Promise.all([KEPT_CACHE, ...OPENED_CACHES].map((n) => caches.delete(n)));
}

/** A recipe that opens without a network. */
export interface StoredRecipe {
  id: string;
  title: string;
  kept: boolean;
}

const RECIPE_PATH = /^\/api\/recipes\/([0-9a-f-]{36})$/i;

/** The recipes kept offline or opened before, kept ones first, then by title. */
export async function storedRecipes(): Promise<StoredRecipe[]> {
  if (!available()) return [];
  const found = new Map<string, StoredRecipe>();
  for (const name of [KEPT_CACHE, ...OPENED_CACHES]) {
    if (!(await caches.has(name))) continue;
    const c = await caches.open(name);
    for (const req of await c.keys()) {
      const m = RECIPE_PATH.exec(new URL(req.url).pathname);
      if (!m || found.has(m[1])) continue;
      try {
        const body = (await (await c.match(req))?.json()) as { title?: unknown } | undefined;
        if (typeof body?.title === 'string') found.set(m[1], { id: m[1], title: body.title, kept: name === KEPT_CACHE });
      } catch {
        // not a recipe body: skip it
      }
    }
  }
  return [...found.values()].sort((a, b) => Number(b.kept) - Number(a.kept) || a.title.localeCompare(b.title));
}
