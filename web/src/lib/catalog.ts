/** Shapes of answers this client reads beyond those api.ts declares. */
import type { Recipe } from './api';

/** GET /api/recipes/:id: for a reader other than the owner, the owner's display name. */
export type RecipeRead = Recipe & { ownerName?: string };
