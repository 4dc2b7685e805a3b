import { useEffect, useMemo, useRef, useState } from 'react';
import { labelWithCount, withSelected } from '../lib/labels';
import { Link, useSearchParams } from 'react-router';
import { api, type Page, type RecipeSummary, type TagCount } from '../lib/api';
import { useAuth } from '../lib/auth';
import { useDebounced, useInView, useTitle } from '../lib/hooks';
import { RecipeCard, RecipeCardSkeleton } from '../components/RecipeCard';
import { ErrorView, Field } from '../components/ui';
import { AddToPlan } from '../components/AddToPlan';
import { TodayMeals } from '../components/TodayMeals';

const PAGE = 24;

export default function RecipeList() {
  useTitle('Recipes');
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const category = params.get('category') ?? '';
  const tag = params.get('tag') ?? '';
  const mine = params.get('owner') === 'me';
  // The box keeps its own state so typing is never slowed by the URL; the URL follows.
  const [q, setQ] = useState(params.get('q') ?? '');
  const debouncedQ = useDebounced(q.trim(), 250);

  const setParam = (key: string, value: string) => {
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        if (value) p.set(key, value);
        else p.delete(key);
        return p;
      },
      { replace: true },
    );
  };
  useEffect(() => {
    if ((params.get('q') ?? '') !== debouncedQ) setParam('q', debouncedQ);
  }, [debouncedQ]);

  const [items, setItems] = useState<RecipeSummary[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [total, setTotal] = useState<number | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const ctrl = useRef<AbortController | null>(null);
  const filters = useMemo(
    () => ({ q: debouncedQ, category, tag, owner: mine ? ('me' as const) : undefined, limit: PAGE }),
    [debouncedQ, category, tag, mine],
  );

  const load = (reset: boolean) => {
    ctrl.current?.abort(new DOMException('superseded', 'AbortError'));
    const c = new AbortController();
    ctrl.current = c;
    setLoading(true);
    setError(null);
    api.listRecipes({ ...filters, cursor: reset ? null : cursor }, c.signal).then(
      (page: Page<RecipeSummary>) => {
        if (c.signal.aborted) return;
        setItems((prev) => (reset ? page.items : [...prev, ...page.items.filter((r) => !prev.some((p) => p.id === r.id))]));
        setCursor(page.nextCursor);
        setTotal(page.total);
        setLoading(false);
      },
      (e) => {
        if (c.signal.aborted) return;
        setError(e);
        setLoading(false);
      },
    );
  };

  useEffect(() => {
    load(true);
    return () => ctrl.current?.abort(new DOMException('unmounted', 'AbortError'));
  }, [filters, user?.id]);

  const hasMore = cursor != null && !loading && !error;
  const sentinel = useInView<HTMLDivElement>(() => hasMore && load(false), hasMore);

  const [tags, setTags] = useState<TagCount[]>([]);
  const [categories, setCategories] = useState<TagCount[]>([]);
  useEffect(() => {
    const c = new AbortController();
    api.listTags(c.signal).then(setTags, () => setTags([]));
    api.listCategories(c.signal).then(setCategories, () => setCategories([]));
    return () => c.abort(new DOMException('unmounted', 'AbortError'));
  }, [user?.id]);
  // The menus come from the server (everything this viewer may read, with counts), never from
  // the recipes loaded so far: searching must not shrink them.
  const categoryMenu = withSelected(categories, category);
  const tagMenu = withSelected(tags, tag);

  return (
    <div>
      <div className="page-head">
        <h1>Recipes</h1>
        {user && (
          <div className="actions">
            <Link className="button secondary" to="/import" data-testid="list-import">
              Import
            </Link>
            <Link className="button" to="/recipes/new" data-testid="list-new-recipe">
              New recipe
            </Link>
          </div>
        )}
      </div>
      {user && <TodayMeals />}
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <Field label="Search" className="grow">
          {(c) => (
            <input
              {...c}
              type="search"
              placeholder="Title, ingredient, step…"
              value={q}
              onChange={(e) => setQ(e.target.value)}
              data-testid="recipe-search"
            />
          )}
        </Field>
        <Field label="Category">
          {(c) => (
            <select {...c} value={category} onChange={(e) => setParam('category', e.target.value)} data-testid="filter-category">
              <option value="">All</option>
              {categoryMenu.map((t) => (
                <option key={t.name} value={t.name}>
                  {labelWithCount(t)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Tag">
          {(c) => (
            <select {...c} value={tag} onChange={(e) => setParam('tag', e.target.value)} data-testid="filter-tag">
              <option value="">All</option>
              {tagMenu.map((t) => (
                <option key={t.name} value={t.name}>
                  {labelWithCount(t)}
                </option>
              ))}
            </select>
          )}
        </Field>
        {user && (
          <label className="check">
            <input
              type="checkbox"
              checked={mine}
              onChange={(e) => setParam('owner', e.target.checked ? 'me' : '')}
              data-testid="filter-mine"
            />
            Only mine
          </label>
        )}
      </form>
      <p className="muted small" aria-live="polite" data-testid="recipe-list-total">
        {total == null ? '\u00a0' : `${total} recipe${total === 1 ? '' : 's'}`}
      </p>
      {error != null && <ErrorView error={error} retry={() => load(items.length === 0)} />}
      {!loading && !error && items.length === 0 && (
        <div className="empty">
          <p>No recipes {q || category || tag ? 'match these filters' : 'yet'}.</p>
          {user && !q && !category && !tag && (
            <p>
              <Link to="/import">Import one from a web page</Link> or <Link to="/recipes/new">write one</Link>.
            </p>
          )}
        </div>
      )}
      <ul className="grid" aria-busy={loading}>
        {items.map((r) => (
          <RecipeCard key={r.id} recipe={r} extra={user && <AddToPlan recipe={r} compact />} />
        ))}
        {loading && Array.from({ length: items.length === 0 ? 8 : 4 }, (_, i) => <RecipeCardSkeleton key={`sk${i}`} />)}
      </ul>
      <div ref={sentinel} className="sentinel" />
      {hasMore && (
        <div className="center">
          <button type="button" className="secondary" onClick={() => load(false)} data-testid="load-more">
            Show more
          </button>
        </div>
      )}
    </div>
  );
}
