import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api, errorMessage, type Cookbook, type Recipe } from '../lib/api';
import { sentence } from '../lib/format';
import { isKept, keep, unkeep } from '../lib/offline';
import { Field } from './ui';

/** "Add to cookbook": the signed-in cook's own cookbooks, loaded when the panel opens. */
export function AddToCookbook({ recipe }: { recipe: Recipe }) {
  const [open, setOpen] = useState(false);
  const [books, setBooks] = useState<Cookbook[] | null>(null);
  const [chosen, setChosen] = useState('');
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open || books) return;
    const c = new AbortController();
    api.listCookbooks({ owner: 'me', limit: 100 }, c.signal).then(
      (p) => {
        setBooks(p.items);
        if (p.items.length > 0) setChosen(p.items[0].id);
      },
      (e) => !c.signal.aborted && setStatus({ ok: false, text: sentence(errorMessage(e)) }),
    );
    return () => c.abort(new DOMException('closed', 'AbortError'));
  }, [open]);
  const add = async () => {
    const book = books?.find((b) => b.id === chosen);
    if (!book) return;
    setBusy(true);
    setStatus(null);
    try {
      await api.addRecipeToCookbook(book.id, recipe.id);
      setStatus({ ok: true, text: `Added to “${book.name}”.` });
    } catch (e) {
      setStatus({ ok: false, text: sentence(errorMessage(e)) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <details className="panel add-to-cookbook" onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary data-testid="add-to-cookbook">Add to cookbook</summary>
      {books && books.length === 0 && (
        <p>
          You have no cookbook yet. <Link to="/cookbooks/new">Make one</Link>.
        </p>
      )}
      {books && books.length > 0 && (
        <div className="inline-form">
          <Field label="Cookbook" className="grow">
            {(c) => (
              <select {...c} value={chosen} onChange={(e) => setChosen(e.target.value)} data-testid="add-to-cookbook-select">
                {books.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <button type="button" onClick={add} disabled={busy} data-testid="add-to-cookbook-submit">
            Add
          </button>
        </div>
      )}
      {!books && !status && <p className="muted">Loading your cookbooks…</p>}
      {status && (
        <p className={status.ok ? 'alert alert-ok' : 'alert alert-error'} role="status" data-testid="add-to-cookbook-status">
          {status.text}
        </p>
      )}
    </details>
  );
}

/** "Keep offline": stores the recipe so it opens without a network (see lib/offline.ts). */
export function KeepOffline({ recipe }: { recipe: Recipe }) {
  const images = [recipe.imageUrl, ...Object.values(recipe.imageVariants ?? {})];
  const [kept, setKept] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    isKept(recipe.id).then(setKept, () => setKept(false));
  }, [recipe.id]);
  if (typeof caches === 'undefined') return null;
  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      if (kept) await unkeep(recipe.id, images);
      else await keep(recipe.id, images, api.accessToken);
      setKept(!kept);
    } catch (e) {
      setError(sentence(errorMessage(e)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className="secondary"
        aria-pressed={kept ?? false}
        onClick={toggle}
        disabled={busy || kept == null}
        data-testid="keep-offline"
      >
        {kept ? 'Kept offline ✓' : 'Keep offline'}
      </button>
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
