import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { api, type Cookbook } from '../lib/api';
import { useInView, useTitle } from '../lib/hooks';
import { CookbookCard } from '../components/CookbookCard';
import { RecipeCardSkeleton } from '../components/RecipeCard';
import { ErrorView } from '../components/ui';

export default function CookbookList() {
  useTitle('Cookbooks');
  const [items, setItems] = useState<Cookbook[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [total, setTotal] = useState<number | null>(null);
  const ctrl = useRef<AbortController | null>(null);

  const load = (reset: boolean) => {
    ctrl.current?.abort(new DOMException('superseded', 'AbortError'));
    const c = new AbortController();
    ctrl.current = c;
    setLoading(true);
    setError(null);
    api.listCookbooks({ cursor: reset ? null : cursor, limit: 24 }, c.signal).then(
      (p) => {
        if (c.signal.aborted) return;
        setItems((prev) => (reset ? p.items : [...prev, ...p.items]));
        setCursor(p.nextCursor);
        setTotal(p.total);
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
    // Runs once; load(false) pages on.
  }, []);
  const hasMore = cursor != null && !loading && !error;
  const sentinel = useInView<HTMLDivElement>(() => hasMore && load(false), hasMore);

  return (
    <div>
      <div className="page-head">
        <h1>Cookbooks</h1>
        <Link className="button" to="/cookbooks/new" data-testid="cookbook-new">
          New cookbook
        </Link>
      </div>
      <p className="muted small" aria-live="polite">
        {total == null ? '\u00a0' : `${total} cookbook${total === 1 ? '' : 's'}`}
      </p>
      {error != null && <ErrorView error={error} retry={() => load(items.length === 0)} />}
      {!loading && !error && items.length === 0 && (
        <div className="empty">
          <p>No cookbooks yet. A cookbook gathers recipes by hand, by category or tag, and can include other cookbooks.</p>
        </div>
      )}
      <ul className="grid">
        {items.map((c) => (
          <CookbookCard key={c.id} cookbook={c} />
        ))}
        {loading && Array.from({ length: items.length ? 3 : 6 }, (_, i) => <RecipeCardSkeleton key={i} />)}
      </ul>
      <div ref={sentinel} className="sentinel" />
      {hasMore && (
        <div className="center">
          <button type="button" className="secondary" onClick={() => load(false)}>
            Show more
          </button>
        </div>
      )}
    </div>
  );
}
