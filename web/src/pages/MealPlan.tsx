import '../planner.css';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, errorMessage, type RecipeSummary } from '../lib/api';
import { useAuth } from '../lib/auth';
import { useAsync, useDebounced, useTitle } from '../lib/hooks';
import {
  MEALS,
  addDays,
  byDayAndMeal,
  entryLabel,
  mealplanApi,
  parseDay,
  storePlanId,
  storedPlanId,
  today,
  weekDays,
  weekStart,
  type Meal,
  type MealPlanEntry,
} from '../lib/mealplan';
import { shoppingApi } from '../lib/shopping';
import { ErrorView, PageSkeleton } from '../components/ui';

const dayName = (day: string) => parseDay(day).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' });

/** The week planner: phones show one day per row, wider screens a grid of days and meals. */
export default function MealPlan() {
  useTitle('Meal plan');
  const { user } = useAuth();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const start = weekStart(params.get('week') || today());
  const days = weekDays(start);
  const [planId, setPlanId] = useState(storedPlanId());
  const plans = useAsync((s) => mealplanApi.plans(s), [user?.id]);
  const week = useAsync((s) => mealplanApi.range(days[0], days[6], planId || undefined, s), [start, planId, user?.id]);
  const [error, setError] = useState('');
  const [shareEmail, setShareEmail] = useState('');
  const [status, setStatus] = useState('');

  if (week.loading && !week.data) return <PageSkeleton />;
  if (week.error || !week.data) return <ErrorView error={week.error} retry={week.reload} />;
  const plan = week.data.plan;
  const grid = byDayAndMeal(week.data.entries);
  const owner = plan.ownerId === user?.id;
  const go = (day: string) => setParams({ week: day }, { replace: true });
  const act = async (fn: () => Promise<unknown>) => {
    setError('');
    try {
      await fn();
      week.reload();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const toList = async () => {
    setError('');
    try {
      const lists = (await shoppingApi.lists()).items;
      const id = lists[0]?.id ?? (await shoppingApi.create('Shopping', 'as_written')).id;
      await shoppingApi.addPlan(id, days[0], days[6], plan.id);
      navigate(`/shopping/${id}`);
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <div className="planner">
      <div className="page-head">
        <h1>
          {plan.name}
          {plan.members.length > 0 && <span className="muted small"> · shared with {plan.members.map((m) => m.name || m.email).join(', ')}</span>}
        </h1>
        <div className="actions no-print">
          {(plans.data?.items.length ?? 0) > 1 && (
            <select
              aria-label="Plan"
              value={plan.id}
              onChange={(e) => {
                storePlanId(e.target.value);
                setPlanId(e.target.value);
              }}
              data-testid="plan-select"
            >
              {plans.data?.items.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          )}
          <button type="button" className="secondary" onClick={toList} data-testid="plan-to-list">
            Shopping list for this week
          </button>
        </div>
      </div>
      <nav className="week-nav no-print" aria-label="Weeks">
        <button type="button" className="secondary" onClick={() => go(addDays(start, -7))} data-testid="week-prev">
          ← Previous
        </button>
        <button type="button" className="secondary" onClick={() => go(today())} data-testid="week-today">
          This week
        </button>
        <button type="button" className="secondary" onClick={() => go(addDays(start, 7))} data-testid="week-next">
          Next →
        </button>
        <span className="muted" data-testid="week-label">
          {dayName(days[0])} – {dayName(days[6])}
        </span>
      </nav>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="week" data-testid="week">
        {days.map((day) => (
          <section key={day} className={`week-day${day === today() ? ' is-today' : ''}`} data-day={day} aria-label={dayName(day)}>
            <h2 className="week-day-name">{dayName(day)}</h2>
            {MEALS.map((meal) => (
              <div key={meal} className="week-meal" data-meal={meal}>
                <h3 className="week-meal-name">{meal}</h3>
                <ul>
                  {(grid.get(day)?.get(meal) ?? []).map((e) => (
                    <EntryRow key={e.id} entry={e} days={days} act={act} />
                  ))}
                </ul>
                <AddEntry day={day} meal={meal} planId={plan.id} onAdded={week.reload} />
              </div>
            ))}
          </section>
        ))}
      </div>
      {owner && (
        <form
          className="inline-form no-print"
          onSubmit={(e) => {
            e.preventDefault();
            void act(async () => {
              await mealplanApi.share(plan.id, shareEmail.trim());
              setShareEmail('');
              setStatus('Shared.');
              plans.reload();
            });
          }}
        >
          <label>
            Share this plan with{' '}
            <input type="email" value={shareEmail} onChange={(e) => setShareEmail(e.target.value)} placeholder="email" data-testid="plan-share-email" />
          </label>
          <button type="submit" disabled={!shareEmail.trim()}>
            Share
          </button>
          {plan.members.map((m) => (
            <button key={m.userId} type="button" className="secondary small-button" onClick={() => act(() => mealplanApi.unshare(plan.id, m.userId))}>
              Stop sharing with {m.email}
            </button>
          ))}
          {status && <span role="status">{status}</span>}
        </form>
      )}
    </div>
  );
}

function EntryRow({ entry, days, act }: { entry: MealPlanEntry; days: string[]; act: (fn: () => Promise<unknown>) => Promise<void> }) {
  const [moving, setMoving] = useState(false);
  return (
    <li className="plan-entry" data-testid="plan-entry">
      {entry.recipe ? (
        <Link to={`/recipes/${entry.recipe.id}${entry.servings ? `?servings=${entry.servings}` : ''}`}>{entryLabel(entry)}</Link>
      ) : (
        <span className={entry.recipeUnavailable ? 'muted' : ''}>{entryLabel(entry)}</span>
      )}
      {entry.servings ? <span className="muted small"> · {entry.servings}</span> : null}
      {entry.note && <span className="muted small"> · {entry.note}</span>}
      <span className="entry-actions no-print">
        <button type="button" className="link-button" onClick={() => setMoving(!moving)} aria-label={`Edit or move ${entryLabel(entry)}`}>
          ✎
        </button>
        <button type="button" className="link-button" onClick={() => act(() => mealplanApi.deleteEntry(entry.id))} aria-label={`Remove ${entryLabel(entry)}`}>
          ×
        </button>
      </span>
      {moving && (
        <form
          className="move no-print"
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            const servings = String(f.get('servings') ?? '').trim();
            void act(() =>
              mealplanApi.updateEntry(entry.id, {
                note: String(f.get('note') ?? ''),
                servings: servings === '' ? null : Number(servings),
                ...(entry.recipe || entry.recipeUnavailable ? {} : { title: String(f.get('title') ?? '') }),
              }),
            );
            setMoving(false);
          }}
        >
          {!entry.recipe && !entry.recipeUnavailable && <input name="title" defaultValue={entry.title} aria-label="Note" maxLength={500} />}
          <input name="servings" type="number" min="0.25" step="any" defaultValue={entry.servings ?? ''} aria-label="Servings" className="narrow" />
          <input name="note" defaultValue={entry.note} aria-label="Comment" placeholder="comment" maxLength={500} />
          <button type="submit" className="small-button">
            Save
          </button>
        </form>
      )}
      {moving && (
        <span className="move no-print">
          <select aria-label="Day" defaultValue={entry.date} onChange={(e) => act(() => mealplanApi.moveEntry(entry.id, e.target.value, entry.meal))}>
            {days.map((d) => (
              <option key={d} value={d}>
                {dayName(d)}
              </option>
            ))}
          </select>
          <select aria-label="Meal" defaultValue={entry.meal} onChange={(e) => act(() => mealplanApi.moveEntry(entry.id, entry.date, e.target.value as Meal))}>
            {MEALS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </span>
      )}
    </li>
  );
}

/** "+": a recipe found by search, or a note. */
function AddEntry({ day, meal, planId, onAdded }: { day: string; meal: Meal; planId: string; onAdded: () => void }) {
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const dq = useDebounced(q.trim(), 250);
  const [found, setFound] = useState<RecipeSummary[]>([]);
  const [error, setError] = useState('');
  useEffect(() => {
    if (!open || dq.length < 2) return setFound([]);
    const c = new AbortController();
    api.listRecipes({ q: dq, limit: 6 }, c.signal).then(
      (p) => setFound(p.items),
      () => setFound([]),
    );
    return () => c.abort(new DOMException('superseded', 'AbortError'));
  }, [dq, open]);
  if (!open) {
    return (
      <button type="button" className="link-button add-entry no-print" onClick={() => setOpen(true)} aria-label={`Add to ${meal} on ${day}`}>
        +
      </button>
    );
  }
  const add = async (input: { recipeId?: string; title?: string }) => {
    try {
      await mealplanApi.addEntry({ planId, date: day, meal, ...input });
      setOpen(false);
      setQ('');
      onAdded();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <form
      className="add-entry-form no-print"
      onSubmit={(e) => {
        e.preventDefault();
        if (q.trim()) void add({ title: q.trim() });
      }}
    >
      <input autoFocus value={q} onChange={(e) => setQ(e.target.value)} placeholder="Recipe or note" aria-label="Recipe or note" maxLength={500} />
      <ul className="suggestions">
        {found.map((r) => (
          <li key={r.id}>
            <button type="button" className="link-button" onClick={() => add({ recipeId: r.id })}>
              {r.title}
            </button>
          </li>
        ))}
      </ul>
      <button type="submit" className="small-button">
        Add note
      </button>
      <button type="button" className="secondary small-button" onClick={() => setOpen(false)}>
        Cancel
      </button>
      {error && <p className="field-error">{error}</p>}
    </form>
  );
}
