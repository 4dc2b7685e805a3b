import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, ApiError, errorMessage, type Job } from '../lib/api';
import { sentence } from '../lib/format';
import { useTitle } from '../lib/hooks';
import { JobProgress } from '../components/JobProgress';
import { ArchiveImport } from '../components/ArchiveImport';
import { Field, fieldError, FormError } from '../components/ui';

type Phase = { kind: 'idle' } | { kind: 'running'; job: Job | null } | { kind: 'failed'; message: string; code: string };

export default function Import() {
  useTitle('Import a recipe');
  const navigate = useNavigate();
  const [url, setUrl] = useState('');
  const [html, setHtml] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [error, setError] = useState<unknown>(null);
  const ctrl = useRef<AbortController | null>(null);
  useEffect(() => () => ctrl.current?.abort(new DOMException('left the page', 'AbortError')), []);

  const run = async (withHtml: boolean) => {
    setError(null);
    setPhase({ kind: 'running', job: null });
    ctrl.current?.abort(new DOMException('restarted', 'AbortError'));
    const c = new AbortController();
    ctrl.current = c;
    let job: Job;
    try {
      job = await api.importRecipe(url.trim(), withHtml ? html : undefined);
    } catch (e) {
      // The request itself was refused (bad address, rate limit…): nothing was queued.
      setError(e);
      setPhase({ kind: 'idle' });
      return;
    }
    setPhase({ kind: 'running', job });
    try {
      const done = await api.waitForJob(job.id, (j) => setPhase({ kind: 'running', job: j }), { signal: c.signal });
      const recipeId = (done.result as { recipeId?: string } | null)?.recipeId;
      if (!recipeId) throw new ApiError(0, 'invalid_result', 'The import finished but named no recipe.');
      navigate(`/recipes/${recipeId}`);
    } catch (e) {
      if (c.signal.aborted) return;
      setPhase({ kind: 'failed', message: sentence(errorMessage(e)), code: e instanceof ApiError ? e.code : 'failed' });
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!/^https?:\/\/\S+$/i.test(url.trim())) {
      setError(new ApiError(400, 'validation_failed', 'Paste the full address of the page, starting with http:// or https://.', { url: 'Not a web address.' }));
      return;
    }
    void run(false);
  };
  const running = phase.kind === 'running';
  // Touch screens get instructions they can follow (no keyboard shortcuts, no source view).
  const [phone] = useState(() => typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches);

  return (
    <div className="narrow wide-ish">
      <h1>Import a recipe</h1>
      <p className="muted">Paste the address of a recipe page. Larder reads the recipe from it and saves a private copy for you.</p>
      <form onSubmit={submit} noValidate className="stack">
        <FormError error={error} shown={['url']} />
        <Field label="Page address" error={fieldError(error, 'url')}>
          {(c) => (
            <input
              {...c}
              type="url"
              inputMode="url"
              placeholder="https://…"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              disabled={running}
              data-testid="import-url"
            />
          )}
        </Field>
        <button type="submit" disabled={running || !url.trim()} data-testid="import-submit">
          {running ? 'Importing…' : 'Import'}
        </button>
      </form>
      {running && (
        <div className="panel">
          <JobProgress job={phase.job} label="Importing" testId="job-progress" />
        </div>
      )}
      {phase.kind === 'failed' && (
        <div className="alert alert-error" role="alert" data-testid="import-error">
          <p>{phase.message}</p>
          <p>You can paste the page below instead.</p>
        </div>
      )}
      {/* Offered from the start: some sites never let a server read them. */}
      <details className="panel" open={phase.kind === 'failed'} data-testid="import-paste">
        <summary>Site refuses? Paste the page instead</summary>
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            if (!/^https?:\/\/\S+$/i.test(url.trim())) {
              setError(new ApiError(400, 'validation_failed', 'Put the page’s address above too, so the recipe links to it.', { url: 'Not a web address.' }));
              return;
            }
            void run(true);
          }}
        >
          {phone ? (
            <p className="muted small" data-testid="import-paste-help">
              On a phone: open the recipe page in your browser, select all of its text (long-press, then “Select all”), copy, and
              paste it here; or use the browser’s Share button and choose Copy. Put the page’s address in the box above as well.
            </p>
          ) : (
            <p className="muted small" data-testid="import-paste-help">
              Open the page in your browser, view its source (Ctrl+U, or ⌥⌘U on a Mac), select all, copy, and paste it here. Its
              text (select all on the page, copy) works too. Larder reads it as if it had fetched the page.
            </p>
          )}
          <Field label="Page text or source (HTML)">
            {(c) => (
              <textarea {...c} rows={8} value={html} onChange={(e) => setHtml(e.target.value)} spellCheck={false} className="mono" data-testid="import-html" />
            )}
          </Field>
          <button type="submit" disabled={running || !html.trim()} data-testid="import-html-submit">
            Import from the pasted page
          </button>
        </form>
      </details>
      <ArchiveImport />
    </div>
  );
}
