import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { RecipeSummary } from '../lib/api';
import { formatMinutes } from '../lib/format';
import { yieldCount } from '../lib/recipe';
import { RecipeImage } from './RecipeImage';
import { Skeleton } from './ui';

/** extra: actions shown under the card ("+ Plan" in search results). */
export function RecipeCard({ recipe, extra }: { recipe: RecipeSummary; extra?: ReactNode }) {
  const time = formatMinutes(recipe.totalMinutes ?? sum(recipe.prepMinutes, recipe.cookMinutes));
  return (
    <li className="card" data-testid="recipe-card" data-recipe-id={recipe.id}>
      <Link to={`/recipes/${recipe.id}`} className="card-link">
        <RecipeImage
          src={recipe.imageUrl}
          variants={recipe.imageVariants}
          sizes="(max-width: 600px) 50vw, 260px"
          alt=""
        />
        <div className="card-body">
          <h3 className="card-title">{recipe.title}</h3>
          <p className="card-meta muted small">
            {time && <span>{time}</span>}
            {recipe.servings ? <span>{yieldCount(recipe, recipe.servings)}</span> : null}
            {recipe.visibility !== 'PUBLIC' && <span className="badge">{recipe.visibility.toLowerCase()}</span>}
          </p>
        </div>
      </Link>
      {extra && <div className="card-extra">{extra}</div>}
    </li>
  );
}

export function RecipeCardSkeleton() {
  return (
    <li className="card" aria-hidden="true">
      <Skeleton className="img-box" style={{ aspectRatio: '4 / 3' }} />
      <div className="card-body">
        <Skeleton className="sk-line" />
        <Skeleton className="sk-line short" />
      </div>
    </li>
  );
}

function sum(a: number | null, b: number | null): number | null {
  return a == null && b == null ? null : (a ?? 0) + (b ?? 0);
}
