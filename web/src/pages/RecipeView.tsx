import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, errorMessage, type Recipe, type Share, type Visibility } from '../lib/api';
import { recipeToInput, servesText, unitFor, useServings } from '../lib/recipe';
import { useAuth } from '../lib/auth';
import { formatMinutes, recipeHeroSizes, sentence } from '../lib/format';
import type { RecipeRead } from '../lib/catalog';
import { AddToCookbook, KeepOffline } from '../components/RecipeActions';
import { useAsync, useTitle } from '../lib/hooks';
import { recipeKey, takePrefetched, writtenRecipe } from '../lib/prefetch';
import { AddToList, AddToPlan } from '../components/AddToPlan';
import { RecipeImage } from '../components/RecipeImage';
import { ServingsControl } from '../components/ServingsControl';
import { ConfirmDialog, ErrorView, Field, fieldError, FormError, PageSkeleton } from '../components/ui';

export default function RecipeView() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const navigate = useNavigate();
  // A public recipe's page carries the recipe (writtenRecipe): the first render shows it.
  const [inPage] = useState(() => writtenRecipe(id, { take: true }) as RecipeRead | undefined);
  const { data: recipe, error, loading, reload, setData } = useAsync(
    (s) => (takePrefetched<RecipeRead>(recipeKey(id)) ?? api.getRecipe(id, s)) as Promise<RecipeRead>,
    [id, user?.id],
    inPage,
  );
  useTitle(recipe?.title);
  const [servings, setServings, scaled] = useServings(recipe);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  const [deleting, setDeleting] = useState(false);

  if (loading && !recipe) return <PageSkeleton />;
  if (error || !recipe) return <ErrorView error={error} retry={reload} />;

  const owner = user?.id === recipe.ownerId;
  const canDelete = owner || user?.role === 'ADMIN';
  const q = servings !== (recipe.servings ?? 1) ? `?servings=${servings}` : '';
  const serves = servesText(recipe, servings);
  const times = [
    ['Prep', recipe.prepMinutes],
    ['Cook', recipe.cookMinutes],
    ['Total', recipe.totalMinutes],
  ] as const;

  return (
    <article className="recipe">
      <header className="recipe-head">
        <div className="recipe-head-text">
          <h1 data-testid="recipe-title">{recipe.title}</h1>
          {recipe.ownerName != null && (
            <p className="muted small" data-testid="recipe-owner">
              {recipe.visibility === 'SHARED' ? 'Shared with you by' : 'From'} {recipe.ownerName || 'another cook'}
            </p>
          )}
          {recipe.description && <p className="lead">{recipe.description}</p>}
          <dl className="times">
            {times.map(([label, m]) =>
              formatMinutes(m) ? (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd>{formatMinutes(m)}</dd>
                </div>
              ) : null,
            )}
            {serves ? (
              <div>
                <dt>{serves.label}</dt>
                <dd data-testid="recipe-serves">{serves.text}</dd>
              </div>
            ) : null}
          </dl>
          {(recipe.categories.length > 0 || recipe.tags.length > 0) && (
            <ul className="tag-row" aria-label="Categories and tags">
              {recipe.categories.map((c) => (
                <li key={`c-${c}`}>
                  <Link className="pill pill-category" to={`/recipes?category=${encodeURIComponent(c)}`}>
                    {c}
                  </Link>
                </li>
              ))}
              {recipe.tags.map((t) => (
                <li key={`t-${t}`}>
                  <Link className="pill" to={`/recipes?tag=${encodeURIComponent(t)}`}>
                    #{t}
                  </Link>
                </li>
              ))}
            </ul>
          )}
          {recipe.sourceUrl && (
            <p className="small">
              Source:{' '}
              <a href={recipe.sourceUrl} target="_blank" rel="noopener noreferrer nofollow" data-testid="recipe-source">
                {hostOf(recipe.sourceUrl)}
              </a>
            </p>
          )}
          <div className="actions">
            <Link className="button" to={`/recipes/${recipe.id}/cook${q}`} data-testid="cook-mode-link">
              Start cooking
            </Link>
            {owner && (
              <>
                <Link className="button secondary" to={`/recipes/${recipe.id}/edit`} data-testid="edit-recipe">
                  Edit
                </Link>
                <Link className="button secondary" to={`/recipes/${recipe.id}/mappings`} data-testid="mappings-link">
                  Ingredients per step
                </Link>
              </>
            )}
            {user && <AddToPlan recipe={recipe} servings={servings} />}
            {user && <AddToList recipe={recipe} servings={servings} />}
            <button type="button" className="secondary no-print" onClick={() => window.print()} data-testid="print-recipe">
              Print
            </button>
            <KeepOffline recipe={recipe} />
            {canDelete && (
              <button type="button" className="secondary danger-text" onClick={() => setConfirmDelete(true)} data-testid="delete-recipe">
                Delete
              </button>
            )}
          </div>
        </div>
        {/* Without an image, no placeholder: the ingredients come up instead. */}
        {recipe.imageUrl && (
          <RecipeImage
            src={recipe.imageUrl}
            variants={recipe.imageVariants}
            alt={recipe.title}
            eager
            className="recipe-hero"
            sizes={recipeHeroSizes}
          />
        )}
      </header>

      <div className="recipe-body">
        <section className="ingredients" aria-labelledby="ingredients-h">
          <div className="section-head">
            <h2 id="ingredients-h">Ingredients</h2>
            <ServingsControl base={recipe.servings} unit={unitFor(recipe, servings)} value={servings} onChange={setServings} />
          </div>
          {recipe.ingredientSections.map((s, si) => (
            <div key={si} className="ing-section">
              {s.name && <h3>{s.name}</h3>}
              <ul className="ing-list">
                {s.ingredients.map((i) => (
                  <li key={i.id} data-testid="ingredient-line">
                    {scaled(i)}
                  </li>
                ))}
              </ul>
            </div>
          ))}
          {recipe.ingredientSections.every((s) => s.ingredients.length === 0) && <p className="muted">No ingredients.</p>}
        </section>
        <section className="steps" aria-labelledby="steps-h">
          <h2 id="steps-h">Method</h2>
          {recipe.instructionSections.map((s, si) => (
            <div key={si}>
              {s.name && <h3>{s.name}</h3>}
              <ol className="step-list">
                {s.steps.map((st) => (
                  <li key={st.id} data-testid="step">
                    {st.text}
                  </li>
                ))}
              </ol>
            </div>
          ))}
        </section>
      </div>

      {user && <AddToCookbook recipe={recipe} />}
      {owner && <SharingPanel recipe={recipe} onChange={setData} />}

      <FormError error={deleteError} />
      <ConfirmDialog
        open={confirmDelete}
        title={`Delete “${recipe.title}”?`}
        confirmLabel="Delete recipe"
        danger
        busy={deleting}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={async () => {
          setDeleting(true);
          try {
            await api.deleteRecipe(recipe.id);
            navigate('/recipes', { replace: true });
          } catch (e) {
            setDeleteError(e);
            setConfirmDelete(false);
          } finally {
            setDeleting(false);
          }
        }}
      >
        <p>The recipe, its image and its place in cookbooks are removed. This cannot be undone.</p>
      </ConfirmDialog>
    </article>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host.replace(/^www\./, '');
  } catch {
    return url;
  }
}

const VISIBILITY_HELP: Record<Visibility, string> = {
  PRIVATE: 'Only you.',
  SHARED: 'You and the people below.',
  PUBLIC: 'Anyone with the link, signed in or not.',
};

function SharingPanel({ recipe, onChange }: { recipe: Recipe; onChange: (r: Recipe) => void }) {
  const shares = useAsync(() => api.listShares(recipe.id), [recipe.id]);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [visError, setVisError] = useState<string | null>(null);

  const setVisibility = async (v: Visibility) => {
    setVisError(null);
    const prev = recipe;
    onChange({ ...recipe, visibility: v });
    try {
      const saved = await api.updateRecipe(recipe.id, { ...recipeToInput(recipe), visibility: v });
      if (saved && typeof saved === 'object' && 'id' in saved) onChange(saved);
    } catch (e) {
      onChange(prev);
      setVisError(sentence(errorMessage(e)));
    }
  };

  const add = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.addShare(recipe.id, email.trim());
      setEmail('');
      shares.reload();
      if (recipe.visibility === 'PRIVATE') await setVisibility('SHARED');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const remove = async (s: Share) => {
    setError(null);
    try {
      await api.removeShare(recipe.id, s.userId);
      shares.setData((list) => (list ?? []).filter((x) => x.userId !== s.userId));
    } catch (err) {
      setError(err);
    }
  };

  return (
    <section className="panel sharing" aria-labelledby="sharing-h">
      <h2 id="sharing-h">Who can see this</h2>
      <Field label="Visibility" hint={VISIBILITY_HELP[recipe.visibility]} error={visError ?? undefined}>
        {(c) => (
          <select
            {...c}
            value={recipe.visibility}
            onChange={(e) => setVisibility(e.target.value as Visibility)}
            data-testid="visibility-select"
          >
            <option value="PRIVATE">Private</option>
            <option value="SHARED">Shared with people</option>
            <option value="PUBLIC">Public</option>
          </select>
        )}
      </Field>
      <h3>Shared with</h3>
      {shares.loading && !shares.data ? (
        <div className="skeleton sk-line" aria-hidden="true" />
      ) : shares.error ? (
        <ErrorView error={shares.error} retry={shares.reload} />
      ) : shares.data && shares.data.length > 0 ? (
        <ul className="share-list" data-testid="share-list">
          {shares.data.map((s) => (
            <li key={s.userId}>
              <span>
                {s.name ? `${s.name} ` : ''}
                <span className="muted">{s.email}</span>
              </span>
              <button type="button" className="secondary small-button" onClick={() => remove(s)} aria-label={`Stop sharing with ${s.email}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Nobody yet.</p>
      )}
      <form onSubmit={add} className="inline-form" noValidate>
        <FormError error={error} shown={['email']} />
        <Field label="Share with (email)" className="grow" error={fieldError(error, 'email')}>
          {(c) => (
            <input {...c} type="email" value={email} onChange={(e) => setEmail(e.target.value)} data-testid="share-email" />
          )}
        </Field>
        <button type="submit" disabled={busy || !email.trim()} data-testid="share-submit">
          Share
        </button>
      </form>
    </section>
  );
}
