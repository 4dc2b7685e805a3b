import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, ApiError, type Job, type Mapping, type Recipe } from '../lib/api';
import { useAuth } from '../lib/auth';
import { useAsync, useTitle } from '../lib/hooks';
import { flattenSteps } from '../lib/recipe';
import { JobProgress } from '../components/JobProgress';
import { useUnsavedChanges } from '../components/UnsavedChanges';
import { ConfirmDialog, ErrorView, FormError, PageSkeleton } from '../components/ui';

const key = (ingredientId: string, stepId: string) => `${ingredientId}|${stepId}`;

export default function MappingEditor() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const data = useAsync(async (s) => {
    const [recipe, mappings] = await Promise.all([api.getRecipe(id, s), api.getMappings(id, s)]);
    return { recipe, mappings };
  }, [id]);
  useTitle(data.data ? `Ingredients per step · ${data.data.recipe.title}` : 'Ingredients per step');
  if (data.loading && !data.data) return <PageSkeleton />;
  if (data.error || !data.data) return <ErrorView error={data.error} retry={data.reload} />;
  if (user && data.data.recipe.ownerId !== user.id) {
    return <ErrorView error={new ApiError(404, 'not_found', 'Only the owner can edit this.')} />;
  }
  return <Editor key={data.data.mappings.length + data.data.recipe.updatedAt} recipe={data.data.recipe} initial={data.data.mappings} />;
}

function Editor({ recipe, initial }: { recipe: Recipe; initial: Mapping[] }) {
  const steps = useMemo(() => flattenSteps(recipe), [recipe]);
  const [narrow] = useState(() => typeof matchMedia === 'function' && matchMedia('(max-width: 640px)').matches);
  const ingredients = useMemo(() => recipe.ingredientSections.flatMap((s) => s.ingredients.map((i) => ({ ...i, section: s.name }))), [recipe]);
  const [checked, setChecked] = useState(() => new Set(initial.map((m) => key(m.ingredientId, m.stepId))));
  const [saved, setSaved] = useState(() => new Set(checked));
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [job, setJob] = useState<Job | null | undefined>(undefined);
  const [confirmRegen, setConfirmRegen] = useState(false);
  const dirty = checked.size !== saved.size || [...checked].some((k) => !saved.has(k));
  const unsaved = useUnsavedChanges(dirty);

  const toggle = (k: string) =>
    setChecked((prev) => {
      const next = new Set(prev);
      if (next.has(k)) next.delete(k);
      else next.add(k);
      return next;
    });

  const save = async () => {
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      const mappings: Mapping[] = [...checked].map((k) => {
        const [ingredientId, stepId] = k.split('|');
        return { ingredientId, stepId };
      });
      await api.putMappings(recipe.id, mappings);
      setSaved(new Set(checked));
      setStatus('Saved.');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const regenerate = async () => {
    setConfirmRegen(false);
    setError(null);
    setStatus(null);
    setJob(null);
    try {
      const j = await api.regenerateMappings(recipe.id);
      setJob(j);
      await api.waitForJob(j.id, setJob);
      // Show the new ticks at once: the regenerated mappings replace both what is shown and what
      // counts as saved (the page's own data may look unchanged, so it would not re-mount).
      const fresh = new Set((await api.getMappings(recipe.id)).map((m) => key(m.ingredientId, m.stepId)));
      setChecked(fresh);
      setSaved(new Set(fresh));
      setJob(undefined);
      setStatus('Regenerated.');
    } catch (e) {
      setJob(undefined);
      setError(e);
      setStatus(null);
    }
  };

  return (
    <div className="stack">
      <div className="page-head">
        <div>
          <p className="muted small">
            <Link to={`/recipes/${recipe.id}`}>← {recipe.title}</Link>
          </p>
          <h1>Ingredients per step</h1>
        </div>
        <div className="actions sticky-actions">
          <button type="button" className="secondary" onClick={() => (dirty ? setConfirmRegen(true) : regenerate())} disabled={busy || job !== undefined} data-testid="mapping-regenerate">
            Regenerate automatically
          </button>
          <button type="button" onClick={save} disabled={busy || !dirty} data-testid="mapping-save">
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </div>
      <p className="muted">Tick the ingredients each step uses. Cooking mode shows them beside the step.</p>
      <FormError error={error} />
      {status && (
        <p className="alert alert-ok" role="status" data-testid="mapping-status">
          {status}
        </p>
      )}
      {job !== undefined && (
        <div className="panel">
          <JobProgress job={job} label="Matching ingredients to steps" testId="mapping-job" />
        </div>
      )}
      {steps.length === 0 || ingredients.length === 0 ? (
        <p className="empty">The recipe needs both ingredients and steps first.</p>
      ) : (
        <div className="mapping-grid">
          {steps.map((s, n) => {
            const ticked = ingredients.filter((i) => checked.has(key(i.id, s.id))).length;
            return (
              // One group per step, folded on small screens except the first: the page stays short
              // and each step says how many ingredients it has ticked.
              <details key={s.id} className="mapping-step" data-testid="mapping-step" open={n === 0 || !narrow}>
                <summary>
                  <span>
                    <span className="step-no">Step {s.number}</span> <span className="muted small">({ticked} ticked)</span>{' '}
                    {s.text.length > 140 ? `${s.text.slice(0, 140)}…` : s.text}
                  </span>
                </summary>
                <fieldset className="mapping-options">
                  <legend className="visually-hidden">Ingredients of step {s.number}</legend>
                  {ingredients.map((i) => {
                    const k = key(i.id, s.id);
                    return (
                      <label key={k} className="check">
                        <input type="checkbox" checked={checked.has(k)} onChange={() => toggle(k)} data-testid="mapping-checkbox" />
                        {i.text}
                      </label>
                    );
                  })}
                </fieldset>
              </details>
            );
          })}
        </div>
      )}
      {unsaved.dialog}
      <ConfirmDialog
        open={confirmRegen}
        title="Replace your changes?"
        confirmLabel="Regenerate"
        danger
        onCancel={() => setConfirmRegen(false)}
        onConfirm={regenerate}
      >
        <p>Regenerating replaces the ticks, including the ones not saved yet.</p>
      </ConfirmDialog>
    </div>
  );
}
