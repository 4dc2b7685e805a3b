import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, ApiError, errorMessage, type Job, type Visibility } from '../lib/api';
import {
  archiveProgress,
  archiveResult,
  formatLabel,
  progressFraction,
  progressText,
  resultSummary,
  startArchiveImport,
  withStatus,
  type ArchiveImportResult,
} from '../lib/archiveImport';
import { Field, fieldError, FormError, ProgressBar } from './ui';

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; fraction: number }
  | { kind: 'running'; job: Job }
  | { kind: 'done'; result: ArchiveImportResult }
  | { kind: 'failed'; message: string };

/**
 * "Import from another app": upload an export (Mealie, Tandoor, Paprika, Nextcloud Cookbook,
 * schema.org JSON), then follow the job: the format the server detected, n of m, and the
 * outcome of every recipe.
 */
export function ArchiveImport() {
  const [file, setFile] = useState<File | null>(null);
  const [visibility, setVisibility] = useState<Visibility>('PRIVATE');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [error, setError] = useState<unknown>(null);
  const ctrl = useRef<AbortController | null>(null);
  useEffect(() => () => ctrl.current?.abort(new DOMException('left the page', 'AbortError')), []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    setError(null);
    ctrl.current?.abort(new DOMException('restarted', 'AbortError'));
    const c = new AbortController();
    ctrl.current = c;
    setPhase({ kind: 'uploading', fraction: 0 });
    let job: Job;
    try {
      job = await startArchiveImport(file, visibility, {
        signal: c.signal,
        onProgress: (fraction) => setPhase({ kind: 'uploading', fraction }),
      });
    } catch (err) {
      if (c.signal.aborted) return;
      setError(err);
      setPhase({ kind: 'idle' });
      return;
    }
    setPhase({ kind: 'running', job });
    try {
      const done = await api.waitForJob(job.id, (j) => setPhase({ kind: 'running', job: j }), { signal: c.signal });
      const result = archiveResult(done);
      if (!result) throw new ApiError(0, 'invalid_result', 'The import finished without a result.');
      setPhase({ kind: 'done', result });
    } catch (err) {
      if (c.signal.aborted) return;
      setPhase({ kind: 'failed', message: errorMessage(err) });
    }
  };

  const busy = phase.kind === 'uploading' || phase.kind === 'running';
  const progress = phase.kind === 'running' ? archiveProgress(phase.job) : null;

  return (
    <section className="stack panel" data-testid="archive-import">
      <h2>Import from another app</h2>
      <p className="muted small">
        Bring a whole collection: a Mealie export or backup, a Tandoor export, a Paprika <code>.paprikarecipes</code> file, a
        Nextcloud Cookbook folder as a zip, or a zip or JSON file of schema.org recipes (up to 500 MB). The format is recognized
        from the file itself. Recipes you already have are skipped.
      </p>
      <form onSubmit={submit} noValidate className="stack">
        <FormError error={error} shown={['file', 'visibility']} />
        <Field label="Export file" error={fieldError(error, 'file')}>
          {(ctl) => (
            <input
              {...ctl}
              type="file"
              accept=".zip,.json,.paprikarecipes,.paprikarecipe,application/zip,application/json"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              disabled={busy}
              data-testid="archive-file"
            />
          )}
        </Field>
        <Field label="Who can see the imported recipes" error={fieldError(error, 'visibility')}>
          {(ctl) => (
            <select
              {...ctl}
              value={visibility}
              onChange={(e) => setVisibility(e.target.value as Visibility)}
              disabled={busy}
              data-testid="archive-visibility"
            >
              <option value="PRIVATE">Only me</option>
              <option value="SHARED">People I share with</option>
              <option value="PUBLIC">Everyone</option>
            </select>
          )}
        </Field>
        <button type="submit" disabled={busy || !file} data-testid="archive-submit">
          {busy ? 'Importing…' : 'Import collection'}
        </button>
      </form>

      {phase.kind === 'uploading' && <ProgressBar value={phase.fraction} label="Uploading" testId="archive-upload-progress" />}

      {phase.kind === 'running' && (
        <div className="stack" aria-live="polite">
          <p data-testid="archive-format">
            {progress ? <>Detected format: <strong>{formatLabel(progress.format)}</strong></> : 'Reading the file…'}
          </p>
          <ProgressBar value={progressFraction(progress)} label="Importing recipes" testId="archive-progress" />
          <p className="muted small" data-testid="archive-count">
            {progressText(progress)}
          </p>
        </div>
      )}

      {phase.kind === 'failed' && (
        <div className="alert alert-error" role="alert" data-testid="archive-error">
          <p>{phase.message}</p>
        </div>
      )}

      {phase.kind === 'done' && <ArchiveResult result={phase.result} />}
    </section>
  );
}

function ArchiveResult({ result }: { result: ArchiveImportResult }) {
  const created = withStatus(result, 'created');
  const skipped = withStatus(result, 'skipped');
  const failed = withStatus(result, 'failed');
  return (
    <div className="stack" data-testid="archive-result">
      <p data-testid="archive-format">
        Detected format: <strong>{formatLabel(result.format)}</strong>
      </p>
      <p className="alert alert-ok" role="status" data-testid="archive-summary">
        {resultSummary(result)}
      </p>
      {created.length > 0 && (
        <details open={created.length <= 20}>
          <summary>Created ({created.length})</summary>
          <ul data-testid="archive-created">
            {created.map((r) => (
              <li key={r.entry}>
                <Link to={`/recipes/${r.recipeId}`}>{r.title || r.entry}</Link>
                {r.warning && <span className="muted small"> — {r.warning}</span>}
              </li>
            ))}
          </ul>
        </details>
      )}
      {skipped.length > 0 && (
        <details>
          <summary>Skipped as duplicates ({skipped.length})</summary>
          <ul data-testid="archive-skipped">
            {skipped.map((r) => (
              <li key={r.entry}>
                {r.recipeId ? <Link to={`/recipes/${r.recipeId}`}>{r.title || r.entry}</Link> : r.title || r.entry}
              </li>
            ))}
          </ul>
        </details>
      )}
      {failed.length > 0 && (
        <details open>
          <summary>Failed ({failed.length})</summary>
          <ul data-testid="archive-failed">
            {failed.map((r) => (
              <li key={r.entry}>
                <strong>{r.title || r.entry}</strong>: {r.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      {result.unmapped.length > 0 && (
        <p className="muted small" data-testid="archive-unmapped">
          Not kept (Larder has no place for them): {result.unmapped.join(', ')}.
        </p>
      )}
    </div>
  );
}
