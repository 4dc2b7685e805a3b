import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, normalizePage, type Cookbook, type Page, type RecipeSummary } from '../lib/api';
import { useAuth } from '../lib/auth';
import { useAsync, useTitle } from '../lib/hooks';
import { CookbookCard } from '../components/CookbookCard';
import { RecipeCard } from '../components/RecipeCard';
import { RecipeImage } from '../components/RecipeImage';
import { ConfirmDialog, ErrorView, FormError, PageSkeleton } from '../components/ui';

const PAGE = 24;

/**
 * A list shown PAGE at a time. Arrays (the whole list in the cookbook answer) page locally;
 * a page object with nextCursor fetches more from `more`.
 */
function usePaged<T>(source: T[] | Page<T> | undefined, more: (cursor: string) => Promise<Page<T>>) {
  const first = normalizePage(source);
  const [items, setItems] = useState<T[]>(first.items);
  const [cursor, setCursor] = useState<string | null>(first.nextCursor);
  const [shown, setShown] = useState(PAGE);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const p = normalizePage(source);
    setItems(p.items);
    setCursor(p.nextCursor);
    setShown(PAGE);
  }, [source]);
  const canShowMore = shown < items.length || cursor != null;
  const showMore = async () => {
    if (shown < items.length) {
      setShown((n) => n + PAGE);
      return;
    }
    if (!cursor) return;
    setLoading(true);
    setError(null);
    try {
      const p = await more(cursor);
      setItems((prev) => [...prev, ...p.items]);
      setCursor(p.nextCursor);
      setShown((n) => n + PAGE);
    } catch (e) {
      setError(e);
    } finally {
      setLoading(false);
    }
  };
  return { visible: items.slice(0, shown), total: Math.max(first.total, items.length), canShowMore, showMore, loading, error };
}

export default function CookbookView() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const navigate = useNavigate();
  const book = useAsync((s) => api.getCookbook(id, s), [id, user?.id]);
  useTitle(book.data?.name);
  const recipes = usePaged<RecipeSummary>(book.data?.recipes, (cursor) => api.cookbookRecipesPage(id, cursor, PAGE));
  // Included cookbooks come as one list (a cookbook includes a handful); shown PAGE at a time.
  const books = usePaged<Cookbook>(book.data?.cookbooks, () => Promise.resolve({ items: [], nextCursor: null, total: 0 }));
  const [confirm, setConfirm] = useState(false);
  const [deleteError, setDeleteError] = useState<unknown>(null);

  if (book.loading && !book.data) return <PageSkeleton />;
  if (book.error || !book.data) return <ErrorView error={book.error} retry={book.reload} />;
  const c = book.data;
  const owner = user?.id === c.ownerId;
  const filters = [...c.autoFilterCategories.map((x) => `category “${x}”`), ...c.autoFilterTags.map((x) => `tag #${x}`)];

  return (
    <div className="stack">
      <header className="recipe-head">
        <div className="recipe-head-text">
          <h1 data-testid="cookbook-title">{c.name}</h1>
          {c.description && <p className="lead">{c.description}</p>}
          {c.tags.length > 0 && (
            <ul className="tag-row" aria-label="Cookbook tags">
              {c.tags.map((t) => (
                <li key={t} className="pill">
                  #{t}
                </li>
              ))}
            </ul>
          )}
          {filters.length > 0 && <p className="muted small">Also collects recipes and cookbooks with {filters.join(', ')}.</p>}
          {owner && (
            <div className="actions">
              <Link className="button secondary" to={`/cookbooks/${c.id}/edit`} data-testid="cookbook-edit">
                Edit
              </Link>
              <button type="button" className="secondary danger-text" onClick={() => setConfirm(true)} data-testid="cookbook-delete">
                Delete
              </button>
            </div>
          )}
        </div>
        <RecipeImage src={c.imageUrl} alt={c.name} ratio="3 / 2" eager className="recipe-hero" />
      </header>
      <FormError error={deleteError} />

      <section aria-labelledby="cb-recipes-h">
        <h2 id="cb-recipes-h">
          Recipes <span className="muted small">({recipes.total})</span>
        </h2>
        {recipes.visible.length === 0 ? (
          <p className="muted">No recipes yet.</p>
        ) : (
          <ul className="grid" data-testid="cookbook-recipes">
            {recipes.visible.map((r) => (
              <RecipeCard key={r.id} recipe={r} />
            ))}
          </ul>
        )}
        <FormError error={recipes.error} />
        {recipes.canShowMore && (
          <div className="center">
            <button type="button" className="secondary" onClick={recipes.showMore} disabled={recipes.loading} data-testid="cookbook-recipes-more">
              Show more recipes
            </button>
          </div>
        )}
      </section>

      <section aria-labelledby="cb-books-h">
        <h2 id="cb-books-h">
          Included cookbooks <span className="muted small">({books.total})</span>
        </h2>
        {books.visible.length === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <ul className="grid" data-testid="cookbook-children">
            {books.visible.map((b) => (
              <CookbookCard key={b.id} cookbook={b} />
            ))}
          </ul>
        )}
        <FormError error={books.error} />
        {books.canShowMore && (
          <div className="center">
            <button type="button" className="secondary" onClick={books.showMore} disabled={books.loading}>
              Show more cookbooks
            </button>
          </div>
        )}
      </section>

      <ConfirmDialog
        open={confirm}
        title={`Delete “${c.name}”?`}
        confirmLabel="Delete cookbook"
        danger
        onCancel={() => setConfirm(false)}
        onConfirm={async () => {
          try {
            await api.deleteCookbook(c.id);
            navigate('/cookbooks', { replace: true });
          } catch (e) {
            setDeleteError(e);
            setConfirm(false);
          }
        }}
      >
        <p>The recipes stay; only the cookbook goes.</p>
      </ConfirmDialog>
    </div>
  );
}
