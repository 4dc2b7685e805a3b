import '../planner.css';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../lib/api';
import { MEALS, mealplanApi, storedPlanId, today, type Meal } from '../lib/mealplan';
import { shoppingApi, type ShoppingList } from '../lib/shopping';
import { yieldCount, type Yield } from '../lib/recipe';

interface RecipeRef extends Yield {
  id: string;
  title: string;
}

/** "Add to plan": picks a day, a meal and servings, then plans the recipe. */
export function AddToPlan({ recipe, servings, compact }: { recipe: RecipeRef; servings?: number | null; compact?: boolean }) {
  const [open, setOpen] = useState(false);
  const [date, setDate] = useState(today());
  const [meal, setMeal] = useState<Meal>('dinner');
  const [count, setCount] = useState<string>(String(servings ?? recipe.servings ?? ''));
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');
  const [error, setError] = useState('');
  if (!open) {
    return (
      <>
        <button
          type="button"
          className={compact ? 'secondary small-button no-print' : 'secondary no-print'}
          onClick={() => {
            setOpen(true);
            setDone('');
          }}
          data-testid="add-to-plan"
          aria-label={compact ? `Add ${recipe.title} to the meal plan` : undefined}
        >
          {compact ? '+ Plan' : 'Add to plan'}
        </button>
        {done && (
          <span className="small no-print" role="status" data-testid="plan-done">
            {done} <Link to="/plan">Open the plan</Link>
          </span>
        )}
      </>
    );
  }
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const n = count.trim() === '' ? undefined : Number(count);
      await mealplanApi.addEntry({ planId: storedPlanId() || undefined, recipeId: recipe.id, date, meal, servings: n });
      setDone(`Planned for ${meal} on ${date}.`);
      setOpen(false);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="inline-form no-print" onSubmit={submit} data-testid="add-to-plan-form">
      <label>
        Day <input type="date" value={date} onChange={(e) => setDate(e.target.value)} required data-testid="plan-date" />
      </label>
      <label>
        Meal{' '}
        <select value={meal} onChange={(e) => setMeal(e.target.value as Meal)} data-testid="plan-meal">
          {MEALS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <label>
        Servings <input type="number" min="0.25" step="any" value={count} onChange={(e) => setCount(e.target.value)} className="narrow" />
      </label>
      <button type="submit" disabled={busy} data-testid="plan-submit">
        Plan it
      </button>
      <button type="button" className="secondary" onClick={() => setOpen(false)}>
        Cancel
      </button>
      {error && <p className="field-error">{error}</p>}
    </form>
  );
}

/** "Add to shopping list": the recipe at the servings shown, into a chosen list. */
export function AddToList({ recipe, servings }: { recipe: RecipeRef; servings?: number | null }) {
  const [lists, setLists] = useState<ShoppingList[] | null>(null);
  const [listId, setListId] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const open = async () => {
    setStatus('');
    try {
      const { items } = await shoppingApi.lists();
      setLists(items);
      setListId(items[0]?.id ?? '');
    } catch (e) {
      setStatus(errorMessage(e));
    }
  };
  if (lists === null) {
    return (
      <button type="button" className="secondary no-print" onClick={open} data-testid="add-to-list">
        Add to shopping list
      </button>
    );
  }
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      let id = listId;
      if (!id) id = (await shoppingApi.create('Shopping', 'as_written')).id;
      await shoppingApi.addRecipe(id, recipe.id, servings ?? undefined);
      setStatus('added');
      setListId(id);
      setLists(null);
    } catch (err) {
      setStatus(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="inline-form no-print" onSubmit={submit}>
      <select value={listId} onChange={(e) => setListId(e.target.value)} data-testid="add-to-list-select" aria-label="Shopping list">
        {lists.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
        <option value="">New list</option>
      </select>
      <button type="submit" disabled={busy} data-testid="add-to-list-submit">
        Add {servings ? `(${yieldCount(recipe, servings)})` : ''}
      </button>
      <button type="button" className="secondary" onClick={() => setLists(null)}>
        Cancel
      </button>
      {status && status !== 'added' && <p className="field-error">{status}</p>}
    </form>
  );
}
