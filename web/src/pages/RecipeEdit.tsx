import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, ApiError, type Recipe, type RecipeInput, type Visibility } from '../lib/api';
import { useAuth } from '../lib/auth';
import { useAsync, useTitle } from '../lib/hooks';
import { ImageField } from '../components/ImageField';
import { fieldMessage } from '../lib/formErrors';
import { useUnsavedChanges } from '../components/UnsavedChanges';
import { fromDrafts, SectionsEditor, toDrafts, type SectionDraft } from '../components/SectionsEditor';
import { ChipsInput, ErrorView, Field, FormError, PageSkeleton, ProgressBar } from '../components/ui';

interface Draft {
  title: string;
  description: string;
  servings: string;
  servingsUnit: string;
  prepMinutes: string;
  cookMinutes: string;
  totalMinutes: string;
  sourceUrl: string;
  visibility: Visibility;
  categories: string[];
  tags: string[];
  ingredients: SectionDraft[];
  steps: SectionDraft[];
}

function toDraft(r?: Recipe): Draft {
  const n = (v: number | null | undefined) => (v == null ? '' : String(v));
  return {
    title: r?.title ?? '',
    description: r?.description ?? '',
    servings: n(r?.servings),
    servingsUnit: r?.servingsUnit ?? '',
    prepMinutes: n(r?.prepMinutes),
    cookMinutes: n(r?.cookMinutes),
    totalMinutes: n(r?.totalMinutes),
    sourceUrl: r?.sourceUrl ?? '',
    visibility: r?.visibility ?? 'PRIVATE',
    categories: r?.categories ?? [],
    tags: r?.tags ?? [],
    ingredients: toDrafts((r?.ingredientSections ?? []).map((s) => ({ name: s.name, items: s.ingredients }))),
    steps: toDrafts((r?.instructionSections ?? []).map((s) => ({ name: s.name, items: s.steps }))),
  };
}

const int = (s: string): number | null => {
  const t = s.trim();
  if (!t) return null;
  const n = Number(t);
  return Number.isInteger(n) && n >= 0 ? n : NaN;
};

/** The API body; item ids of existing items go back so mappings survive. */
function toInput(d: Draft): RecipeInput {
  return {
    title: d.title.trim(),
    description: d.description.trim(),
    servings: int(d.servings),
    servingsUnit: d.servingsUnit.trim(),
    prepMinutes: int(d.prepMinutes),
    cookMinutes: int(d.cookMinutes),
    totalMinutes: int(d.totalMinutes),
    sourceUrl: d.sourceUrl.trim(),
    visibility: d.visibility,
    categories: d.categories,
    tags: d.tags,
    ingredientSections: fromDrafts(d.ingredients).map((s) => ({ name: s.name, ingredients: s.items })),
    instructionSections: fromDrafts(d.steps).map((s) => ({ name: s.name, steps: s.items })),
  };
}

function localErrors(d: Draft): Record<string, string> {
  const e: Record<string, string> = {};
  if (!d.title.trim()) e.title = 'Give the recipe a title.';
  for (const k of ['servings', 'prepMinutes', 'cookMinutes', 'totalMinutes'] as const) {
    if (Number.isNaN(int(d[k]))) e[k] = 'Use a whole number.';
  }
  if (d.sourceUrl.trim() && !/^https?:\/\/\S+$/i.test(d.sourceUrl.trim())) e.sourceUrl = 'Use a web address starting with http:// or https://.';
  return e;
}

const SHOWN = ['title', 'description', 'servings', 'servingsUnit', 'prepMinutes', 'cookMinutes', 'totalMinutes', 'sourceUrl', 'visibility', 'categories', 'tags', 'ingredientSections', 'instructionSections'];

export default function RecipeEdit() {
  const { id } = useParams();
  const { user } = useAuth();
  const existing = useAsync((s) => (id ? api.getRecipe(id, s) : Promise.resolve(undefined)), [id]);
  useTitle(id ? `Edit ${existing.data?.title ?? 'recipe'}` : 'New recipe');

  if (id && existing.loading && !existing.data) return <PageSkeleton />;
  if (id && (existing.error || !existing.data)) return <ErrorView error={existing.error} retry={existing.reload} />;
  if (existing.data && user && existing.data.ownerId !== user.id) {
    return <ErrorView error={new ApiError(404, 'not_found', 'Only the owner can edit this recipe.')} />;
  }
  return <Editor key={id ?? 'new'} recipe={existing.data} />;
}

function Editor({ recipe }: { recipe?: Recipe }) {
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>(() => toDraft(recipe));
  const [imageUrl, setImageUrl] = useState<string | null>(recipe?.imageUrl ?? null);
  const [pendingImage, setPendingImage] = useState<File | null>(null);
  const [uploadProgress, setUploadProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [tagSuggestions, setTagSuggestions] = useState<string[]>([]);
  const [categorySuggestions, setCategorySuggestions] = useState<string[]>([]);

  useEffect(() => {
    api.listTags().then((t) => setTagSuggestions(t.map((x) => x.name)), () => {});
    api.listCategories().then((c) => setCategorySuggestions(c.map((x) => x.name)), () => {});
  }, []);

  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));
  // The values the last save was refused with: field messages follow the values (lib/formErrors.ts).
  const [refused, setRefused] = useState<Draft | null>(null);
  const [initial] = useState(() => JSON.stringify(toInput(toDraft(recipe))));
  const dirty = pendingImage != null || JSON.stringify(toInput(draft)) !== initial;
  const unsaved = useUnsavedChanges(dirty && !busy);
  const fe = (name: string) =>
    fieldMessage(name, {
      local: refused ? localErrors(draft) : {},
      server: error instanceof ApiError ? error.fields : {},
      draft,
      refused,
    });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const local = localErrors(draft);
    setRefused(draft);
    if (Object.keys(local).length > 0) {
      setError(new ApiError(400, 'validation_failed', 'Check the highlighted fields.', {}));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const input = toInput(draft);
      const saved = recipe ? await api.updateRecipe(recipe.id, input) : await api.createRecipe(input);
      const savedId = saved?.id ?? recipe?.id;
      if (pendingImage && savedId) {
        setUploadProgress(0);
        try {
          await api.waitIfJob(await api.uploadRecipeImage(savedId, pendingImage, { onProgress: setUploadProgress }));
        } catch (err) {
          // The recipe is saved; say what failed and let the user retry from the edit page.
          setUploadProgress(null);
          setBusy(false);
          setError(err);
          unsaved.release();
          navigate(`/recipes/${savedId}/edit`, { replace: true });
          return;
        }
      }
      unsaved.release();
      navigate(`/recipes/${savedId}`);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="editor stack" data-testid="recipe-form">
      <div className="page-head">
        <h1>{recipe ? 'Edit recipe' : 'New recipe'}</h1>
        <div className="actions">
          <Link className="button secondary" to={recipe ? `/recipes/${recipe.id}` : '/recipes'}>
            Cancel
          </Link>
          <button type="submit" disabled={busy} data-testid="recipe-save">
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </div>
      <FormError error={error} shown={SHOWN} />

      <div className="editor-grid">
        <div className="stack">
          <Field label="Title" error={fe('title')}>
            {(c) => <input {...c} required value={draft.title} onChange={(e) => set('title', e.target.value)} data-testid="recipe-title-input" />}
          </Field>
          <Field label="Description" error={fe('description')}>
            {(c) => (
              <textarea {...c} rows={3} value={draft.description} onChange={(e) => set('description', e.target.value)} data-testid="recipe-description" />
            )}
          </Field>
          <div className="row-fields">
            <Field label="Servings" error={fe('servings')}>
              {(c) => (
                <input {...c} type="number" min={1} inputMode="numeric" value={draft.servings} onChange={(e) => set('servings', e.target.value)} data-testid="recipe-servings" />
              )}
            </Field>
            <Field label="Servings unit" error={fe('servingsUnit')}>
              {(c) => (
                <input
                  {...c}
                  maxLength={40}
                  placeholder="people, or cookies, loaves…"
                  value={draft.servingsUnit}
                  onChange={(e) => set('servingsUnit', e.target.value)}
                  data-testid="recipe-servings-unit"
                />
              )}
            </Field>
            <Field label="Prep (min)" error={fe('prepMinutes')}>
              {(c) => <input {...c} type="number" min={0} inputMode="numeric" value={draft.prepMinutes} onChange={(e) => set('prepMinutes', e.target.value)} />}
            </Field>
            <Field label="Cook (min)" error={fe('cookMinutes')}>
              {(c) => <input {...c} type="number" min={0} inputMode="numeric" value={draft.cookMinutes} onChange={(e) => set('cookMinutes', e.target.value)} />}
            </Field>
            <Field label="Total (min)" error={fe('totalMinutes')}>
              {(c) => <input {...c} type="number" min={0} inputMode="numeric" value={draft.totalMinutes} onChange={(e) => set('totalMinutes', e.target.value)} />}
            </Field>
          </div>
          <Field label="Source address" error={fe('sourceUrl')}>
            {(c) => <input {...c} type="url" inputMode="url" value={draft.sourceUrl} onChange={(e) => set('sourceUrl', e.target.value)} placeholder="https://…" />}
          </Field>
          <Field label="Visibility" error={fe('visibility')}>
            {(c) => (
              <select {...c} value={draft.visibility} onChange={(e) => set('visibility', e.target.value as Visibility)} data-testid="recipe-visibility">
                <option value="PRIVATE">Private: only you</option>
                <option value="SHARED">Shared: you and people you share with</option>
                <option value="PUBLIC">Public: anyone</option>
              </select>
            )}
          </Field>
          <ChipsInput label="Categories" values={draft.categories} onChange={(v) => set('categories', v)} suggestions={categorySuggestions} error={fe('categories')} testId="recipe-categories" />
          <ChipsInput label="Tags" values={draft.tags} onChange={(v) => set('tags', v)} suggestions={tagSuggestions} error={fe('tags')} testId="recipe-tags" />
        </div>
        <div className="stack">
          <h2 className="h-label">Image</h2>
          {recipe ? (
            <ImageField
              label={`Image of ${draft.title || 'the recipe'}`}
              imageUrl={imageUrl}
              testId="recipe-image"
              upload={async (file, onProgress) => {
                const r = await api.uploadRecipeImage(recipe.id, file, { onProgress });
                await api.waitIfJob(r);
                setImageUrl((await api.getRecipe(recipe.id)).imageUrl);
              }}
              remove={async () => {
                await api.deleteRecipeImage(recipe.id);
                setImageUrl(null);
              }}
            />
          ) : (
            <Field label="Image (uploaded when you save)" hint="JPEG, PNG, GIF or WEBP, up to 20 MB.">
              {(c) => (
                <input
                  {...c}
                  type="file"
                  accept="image/jpeg,image/png,image/gif,image/webp"
                  onChange={(e) => setPendingImage(e.target.files?.[0] ?? null)}
                  data-testid="recipe-image-file"
                />
              )}
            </Field>
          )}
          {uploadProgress != null && <ProgressBar value={uploadProgress} label="Uploading image" testId="recipe-image-progress" />}
        </div>
      </div>

      <section aria-labelledby="ing-h" className="stack">
        <h2 id="ing-h">Ingredients</h2>
        <p className="muted small">One per line, amount first (“1 1/2 cups flour”) so servings can scale it. Paste a whole list into a box to split it.</p>
        <SectionsEditor kind="ingredient" sections={draft.ingredients} onChange={(v) => set('ingredients', v)} error={fe('ingredientSections')} />
      </section>
      <section aria-labelledby="steps-h" className="stack">
        <h2 id="steps-h">Method</h2>
        <SectionsEditor kind="step" sections={draft.steps} onChange={(v) => set('steps', v)} error={fe('instructionSections')} />
      </section>
      <div className="actions end">
        <button type="submit" disabled={busy} data-testid="recipe-save-bottom">
          {busy ? 'Saving…' : 'Save'}
        </button>
      </div>
      {unsaved.dialog}
    </form>
  );
}
