import '../planner.css';
import { Link } from 'react-router';
import { useAsync } from '../lib/hooks';
import { MEALS, entryLabel, mealplanApi, storedPlanId, today } from '../lib/mealplan';

/** Today's planned meals, for the home page of a signed-in user. */
export function TodayMeals() {
  const day = today();
  const { data } = useAsync((s) => mealplanApi.range(day, day, storedPlanId() || undefined, s), [day]);
  if (!data) return null;
  const entries = [...data.entries].sort((a, b) => MEALS.indexOf(a.meal) - MEALS.indexOf(b.meal) || a.position - b.position);
  return (
    <section className="today-meals no-print" aria-label="Today's meals" data-testid="today-meals">
      <h2 className="small-heading">Today</h2>
      {entries.length === 0 ? (
        <p className="muted small">
          Nothing planned for today. <Link to="/plan">Plan the week</Link>
        </p>
      ) : (
        <ul className="today-list">
          {entries.map((e) => (
            <li key={e.id}>
              <span className="badge">{e.meal}</span>{' '}
              {e.recipe ? (
                <Link to={`/recipes/${e.recipe.id}${e.servings ? `?servings=${e.servings}` : ''}`}>{entryLabel(e)}</Link>
              ) : (
                <span className={e.recipeUnavailable ? 'muted' : ''}>{entryLabel(e)}</span>
              )}
            </li>
          ))}
          <li>
            <Link to="/plan" className="small">
              Week plan →
            </Link>
          </li>
        </ul>
      )}
    </section>
  );
}
