import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, ApiError, errorMessage, normalizePage, type Cookbook, type CookbookDetail, type Job, type RecipeSummary } from '../lib/api';
import { useAuth } from '../lib/auth';
import { useAsync, useDebounced, useTitle } from '../lib/hooks';
import { ImageField } from '../components/ImageField';
import { JobProgress } from '../components/JobProgress';
import { ChipsInput, ErrorView, Field, fieldError, FormError, PageSkeleton } from '../components/ui';

export default function CookbookEdit() {
  const { id } = useParams();
  const { user } = useAuth();
  const book = useAsync((s) => (id ? api.getCookbook(id, s) : Promise.resolve(undefined)), [id]);
  useTitle(id ? `Edit ${book.data?.name ?? 'cookbook'}` : 'New cookbook');
  if (id && book.loading && !book.data) return <PageSkeleton />;
  if (id && (book.error || !book.data)) return <ErrorView error={book.error} retry={book.reload} />;
  if (book.data && user && book.data.ownerId !== user.id) {
    return <ErrorView error={new ApiError(404, 'not_found', 'Only the owner can edit this cookbook.')} />;
  }
  return (
    <div className="stack">
      <BasicsForm key={id ?? 'new'} book={book.data} onSaved={book.reload} />
      {book.data && (
        <>
          <ImageSection book={book.data} onChange={book.reload} />
          <RecipesSection book={book.data} onChange={book.reload} />
          <IncludesSection book={book.data} onChange={book.reload} />
        </>
      )}
    </div>
  );
}

function useSuggestions() {
  const [tags, setTags] = useState<string[]>([]);
  const [categories, setCategories] = useState<string[]>([]);
  useEffect(() => {
    api.listTags().then((t) => setTags(t.map((x) => x.name)), () => {});
    api.listCategories().then((c) => setCategories(c.map((x) => x.name)), () => {});
  }, []);
  return { tags, categories };
}

function BasicsForm({ book, onSaved }: { book?: CookbookDetail; onSaved: () => void }) {
  const navigate = useNavigate();
  const s = useSuggestions();
  const [name, setName] = useState(book?.name ?? '');
  const [description, setDescription] = useState(book?.description ?? '');
  const [tags, setTags] = useState<string[]>(book?.tags ?? []);
  const [autoCats, setAutoCats] = useState<string[]>(book?.autoFilterCategories ?? []);
  const [autoTags, setAutoTags] = useState<string[]>(book?.autoFilterTags ?? []);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setError(new ApiError(400, 'validation_failed', 'Check the highlighted fields.', { name: 'Give the cookbook a name.' }));
      return;
    }
    setBusy(true);
    setError(null);
    setStatus(null);
    const input = { name: name.trim(), description: description.trim(), tags, autoFilterCategories: autoCats, autoFilterTags: autoTags };
    try {
      const saved: Cookbook = book ? await api.updateCookbook(book.id, input) : await api.createCookbook(input);
      const id = saved?.id ?? book?.id;
      // Auto-filters have their own route; set them there too so they stick either way.
      if (id) await api.setCookbookAutoFilters(id, autoCats, autoTags);
      if (book) {
        setStatus('Saved.');
        onSaved();
      }
      else navigate(`/cookbooks/${id}/edit`, { replace: true });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="stack" data-testid="cookbook-form">
      <div className="page-head">
        <h1>{book ? 'Edit cookbook' : 'New cookbook'}</h1>
        <div className="actions">
          <Link className="button secondary" to={book ? `/cookbooks/${book.id}` : '/cookbooks'} data-testid="cookbook-done">
            {book ? 'Done' : 'Cancel'}
          </Link>
          <button type="submit" disabled={busy} data-testid="cookbook-save">
            {busy ? 'Saving…' : book ? 'Save' : 'Create'}
          </button>
        </div>
      </div>
      <FormError error={error} shown={['name', 'description', 'tags', 'autoFilterCategories', 'autoFilterTags']} />
      {status && (
        <p className="alert alert-ok" role="status">
          {status}
        </p>
      )}
      <div className="editor-grid">
        <div className="stack">
          <Field label="Name" error={fieldError(error, 'name')}>
            {(c) => <input {...c} required value={name} onChange={(e) => setName(e.target.value)} data-testid="cookbook-name" />}
          </Field>
          <Field label="Description" error={fieldError(error, 'description')}>
            {(c) => <textarea {...c} rows={3} value={description} onChange={(e) => setDescription(e.target.value)} data-testid="cookbook-description" />}
          </Field>
          <ChipsInput
            label="Cookbook tags"
            values={tags}
            onChange={setTags}
            error={fieldError(error, 'tags')}
            hint="Other cookbooks can collect this one by these tags."
            testId="cookbook-tags"
          />
        </div>
        <div className="stack panel">
          <h2 className="h-label">Collect automatically</h2>
          <ChipsInput
            label="Recipes in categories"
            values={autoCats}
            onChange={setAutoCats}
            suggestions={s.categories}
            error={fieldError(error, 'autoFilterCategories')}
            testId="autofilter-categories"
          />
          <ChipsInput
            label="Recipes and cookbooks with tags"
            values={autoTags}
            onChange={setAutoTags}
            suggestions={s.tags}
            error={fieldError(error, 'autoFilterTags')}
            testId="autofilter-tags"
          />
        </div>
      </div>
      {!book && <p className="muted small">After creating it you can add an image, recipes and other cookbooks.</p>}
    </form>
  );
}

function ImageSection({ book, onChange }: { book: CookbookDetail; onChange: () => void }) {
  const [url, setUrl] = useState('');
  const [job, setJob] = useState<Job | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const fromUrl = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setJob(null);
    try {
      const j = await api.cookbookImageFromUrl(book.id, url.trim());
      setJob(j);
      await api.waitForJob(j.id, setJob);
      setUrl('');
      onChange();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setJob(undefined);
    }
  };
  return (
    <section className="panel stack" aria-labelledby="cb-img-h">
      <h2 id="cb-img-h">Image</h2>
      <ImageField
        label={`Image of ${book.name}`}
        imageUrl={book.imageUrl}
        testId="cookbook-image"
        upload={async (file, onProgress) => {
          await api.waitIfJob(await api.uploadCookbookImage(book.id, file, { onProgress }));
          onChange();
        }}
      />
      <form onSubmit={fromUrl} className="inline-form" noValidate>
        <Field label="Or download an image from an address" className="grow" error={error ?? undefined}>
          {(c) => (
            <input {...c} type="url" inputMode="url" placeholder="https://…/photo.jpg" value={url} onChange={(e) => setUrl(e.target.value)} data-testid="cookbook-image-url" />
          )}
        </Field>
        <button type="submit" disabled={!/^https?:\/\/\S+$/i.test(url.trim()) || job !== undefined} data-testid="cookbook-image-url-submit">
          Download
        </button>
      </form>
      {job !== undefined && <JobProgress job={job} label="Downloading image" testId="cookbook-image-job" />}
    </section>
  );
}

function RecipesSection({ book, onChange }: { book: CookbookDetail; onChange: () => void }) {
  const recipes = normalizePage(book.recipes).items;
  // Only hand-added recipes can be removed; when the API says which those are, others are marked.
  const direct = book.recipeIds ? new Set(book.recipeIds) : null;
  const [q, setQ] = useState('');
  const dq = useDebounced(q.trim(), 250);
  const [results, setResults] = useState<RecipeSummary[]>([]);
  const [searching, setSearching] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!dq) {
      setResults([]);
      return;
    }
    const c = new AbortController();
    setSearching(true);
    api.listRecipes({ q: dq, limit: 10 }, c.signal).then(
      (p) => {
        setResults(p.items);
        setSearching(false);
      },
      (e) => {
        if (c.signal.aborted) return;
        setError(e);
        setSearching(false);
      },
    );
    return () => c.abort(new DOMException('superseded', 'AbortError'));
  }, [dq]);
  const inBook = new Set(recipes.map((r) => r.id));
  const act = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
      onChange();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <section className="panel stack" aria-labelledby="cb-rec-h">
      <h2 id="cb-rec-h">Recipes</h2>
      <FormError error={error} />
      <Field label="Find a recipe to add">
        {(c) => <input {...c} type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Search your recipes" data-testid="cookbook-recipe-search" />}
      </Field>
      {dq && (
        <ul className="pick-list" aria-busy={searching} aria-label="Search results">
          {results.length === 0 && !searching && <li className="muted">No match.</li>}
          {results.map((r) => (
            <li key={r.id}>
              <span>{r.title}</span>
              {inBook.has(r.id) ? (
                <span className="muted small">In the cookbook</span>
              ) : (
                <button type="button" className="small-button" onClick={() => act(() => api.addRecipeToCookbook(book.id, r.id))} aria-label={`Add ${r.title}`} data-testid="cookbook-add-recipe">
                  Add
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <h3>In this cookbook</h3>
      {recipes.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <ul className="pick-list" data-testid="cookbook-recipe-list">
          {recipes.map((r) => (
            <li key={r.id} data-testid="cookbook-recipe">
              <Link to={`/recipes/${r.id}`}>{r.title}</Link>
              {direct && !direct.has(r.id) ? (
                <span className="muted small">collected automatically</span>
              ) : (
                <button type="button" className="secondary small-button" onClick={() => act(() => api.removeRecipeFromCookbook(book.id, r.id))} aria-label={`Remove ${r.title}`}>
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function IncludesSection({ book, onChange }: { book: CookbookDetail; onChange: () => void }) {
  const included = normalizePage(book.cookbooks).items;
  const direct = book.cookbookIds ? new Set(book.cookbookIds) : null;
  const mine = useAsync((s) => api.listCookbooks({ owner: 'me', limit: 100 }, s), [book.id]);
  const [choice, setChoice] = useState('');
  const [error, setError] = useState<unknown>(null);
  const options = (mine.data?.items ?? []).filter((c) => c.id !== book.id && !included.some((i) => i.id === c.id));
  const act = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
      setChoice('');
      onChange();
    } catch (e) {
      // The server's message says why (a loop, another owner's cookbook): shown once, as it is.
      setError(e);
    }
  };
  return (
    <section className="panel stack" aria-labelledby="cb-inc-h">
      <h2 id="cb-inc-h">Included cookbooks</h2>
      <FormError error={error} />
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (choice) void act(() => api.includeCookbook(book.id, choice));
        }}
      >
        <Field label="Include a cookbook" className="grow">
          {(c) => (
            <select {...c} value={choice} onChange={(e) => setChoice(e.target.value)} data-testid="cookbook-include-select">
              <option value="">Choose…</option>
              {options.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" disabled={!choice} data-testid="cookbook-include-submit">
          Include
        </button>
      </form>
      {included.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul className="pick-list">
          {included.map((c) => (
            <li key={c.id} data-testid="cookbook-child">
              <Link to={`/cookbooks/${c.id}`}>{c.name}</Link>
              {direct && !direct.has(c.id) ? (
                <span className="muted small">collected by tag</span>
              ) : (
                <button type="button" className="secondary small-button" onClick={() => act(() => api.excludeCookbook(book.id, c.id))} aria-label={`Stop including ${c.name}`}>
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
