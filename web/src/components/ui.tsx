import { useEffect, useId, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../lib/api';
import { useAuth } from '../lib/auth';
import { sentence } from '../lib/format';
import { storedRecipes, type StoredRecipe } from '../lib/offline';

/** Props a labelled control needs: its id and the ids of its hint and error. */
export interface ControlProps {
  id: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

/** A label, a control (render prop), an optional hint and the field's error next to it. */
export function Field(props: {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errId = `${id}-err`;
  const describedBy = [props.hint ? hintId : '', props.error ? errId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${props.className ?? ''}`}>
      <label htmlFor={id}>{props.label}</label>
      {props.children({ id, 'aria-invalid': props.error ? true : undefined, 'aria-describedby': describedBy })}
      {props.hint && (
        <div className="hint" id={hintId}>
          {props.hint}
        </div>
      )}
      {props.error && (
        <div className="field-error" id={errId}>
          {sentence(props.error)}
        </div>
      )}
    </div>
  );
}

/**
 * The error of a failed action, from the API's error body. Field errors shown next to their
 * fields are listed in `shown`; the others are listed here so none is lost.
 */
export function FormError({ error, shown = [] }: { error: unknown; shown?: string[] }) {
  if (!error) return null;
  const extra =
    error instanceof ApiError ? Object.entries(error.fields).filter(([k]) => !shown.includes(k)) : [];
  return (
    <div className="alert alert-error" role="alert" data-testid="form-error">
      <p>{sentence(errorMessage(error))}</p>
      {extra.length > 0 && (
        <ul>
          {extra.map(([k, v]) => (
            <li key={k}>
              <strong>{k}</strong>: {sentence(v)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function fieldError(error: unknown, name: string): string | undefined {
  return error instanceof ApiError ? error.fields[name] : undefined;
}

/** The error of a page load: a sign-in prompt for 401, a plain "not found" for 404. */
export function ErrorView({ error, retry }: { error: unknown; retry?: () => void }) {
  const { user } = useAuth();
  const here = typeof location === 'undefined' ? '/' : location.pathname + location.search;
  const signIn = (
    <p>
      <Link className="button" to={`/login?next=${encodeURIComponent(here)}`} data-testid="error-sign-in">
        Sign in
      </Link>
    </p>
  );
  if (error instanceof ApiError && error.status === 401) {
    return (
      <div className="empty" role="alert">
        <h1>Sign in to see this</h1>
        {signIn}
      </div>
    );
  }
  // Signed out, a private or shared link answers 404 like a missing one: offer the sign-in that
  // may open it, and come back here after.
  if (error instanceof ApiError && error.status === 404 && user === null) {
    return (
      <div className="empty" role="alert" data-testid="error-signed-out">
        <h1>Sign in to open this</h1>
        <p>It may be private or shared with you. Sign in and you come back here.</p>
        {signIn}
      </div>
    );
  }
  if (error instanceof ApiError && error.status === 404) {
    return (
      <div className="empty" role="alert">
        <h1>Not found</h1>
        <p>It does not exist, or it is not shared with you.</p>
        <p>
          <Link to="/recipes">Back to recipes</Link>
        </p>
      </div>
    );
  }
  if (isOffline(error)) return <OfflineNotice retry={retry} />;
  return (
    <div className="alert alert-error" role="alert">
      <p>{sentence(errorMessage(error))}</p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** What a page that needs the network shows without one. */
export function OfflineNotice({ retry }: { retry?: () => void }) {
  // What can be opened now, so the notice is never a dead end.
  const [stored, setStored] = useState<StoredRecipe[]>([]);
  useEffect(() => {
    storedRecipes().then(setStored, () => setStored([]));
  }, []);
  return (
    <div className="empty" role="alert" data-testid="error-offline">
      <h1>This page needs the network</h1>
      <p>Larder cannot be reached: you may be offline. Recipes you opened before, and those kept offline, still open.</p>
      {stored.length > 0 && (
        <ul className="pick-list offline-recipes" aria-label="Recipes you can open offline" data-testid="offline-recipes">
          {stored.map((r) => (
            <li key={r.id}>
              <Link to={`/recipes/${r.id}`}>{r.title}</Link>
              {r.kept && <span className="muted small"> kept offline</span>}
            </li>
          ))}
        </ul>
      )}
      <p>
        {retry ? (
          <button type="button" onClick={retry}>
            Try again
          </button>
        ) : (
          <button type="button" onClick={() => location.reload()}>
            Try again
          </button>
        )}
      </p>
    </div>
  );
}

/** A request that failed for want of a network: offline, or the server out of reach. */
export function isOffline(error: unknown): boolean {
  return error instanceof ApiError && error.status === 0 && error.code === 'network_error';
}

/** A progress bar; value 0..1, or null for "working, amount unknown". */
export function ProgressBar({ value, label, testId }: { value: number | null; label: string; testId?: string }) {
  const pct = value == null ? undefined : Math.round(Math.max(0, Math.min(1, value)) * 100);
  return (
    <div className="progress-wrap" data-testid={testId}>
      <div
        className={`progress ${pct == null ? 'indeterminate' : ''}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
      >
        <div className="progress-bar" style={pct == null ? undefined : { width: `${pct}%` }} />
      </div>
      <span className="progress-text" aria-hidden="true">
        {pct == null ? '' : `${pct}%`}
      </span>
    </div>
  );
}

export function Skeleton({ className = '', style }: { className?: string; style?: CSSProperties }) {
  return <div className={`skeleton ${className}`} style={style} aria-hidden="true" />;
}

/** A page-sized placeholder with fixed proportions, shown while a route or its data loads. */
export function PageSkeleton() {
  return (
    <div className="page-skeleton" aria-busy="true" aria-label="Loading">
      <Skeleton className="sk-title" />
      <Skeleton className="sk-line" />
      <Skeleton className="sk-line short" />
      <Skeleton className="sk-block" />
    </div>
  );
}

/** A list of short strings (tags, categories) with suggestions from a datalist. */
export function ChipsInput(props: {
  label: string;
  values: string[];
  onChange: (v: string[]) => void;
  suggestions?: string[];
  error?: string;
  hint?: ReactNode;
  testId?: string;
  placeholder?: string;
}) {
  const [text, setText] = useState('');
  const listId = useId();
  const add = () => {
    const parts = text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (parts.length === 0) return;
    const next = [...props.values];
    for (const p of parts) if (!next.some((v) => v.toLowerCase() === p.toLowerCase())) next.push(p);
    props.onChange(next);
    setText('');
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      add();
    } else if (e.key === 'Backspace' && text === '' && props.values.length > 0) {
      props.onChange(props.values.slice(0, -1));
    }
  };
  const singular = props.label.replace(/ies$/, 'y').replace(/s$/, '').toLowerCase();
  return (
    <Field label={props.label} error={props.error} hint={props.hint}>
      {(c) => (
        <div className="chips" data-testid={props.testId}>
          {props.values.length > 0 && (
            <ul className="chip-list" aria-label={`${props.label} chosen`}>
              {props.values.map((v) => (
                <li key={v} className="chip">
                  <span>{v}</span>
                  <button
                    type="button"
                    className="chip-remove"
                    aria-label={`Remove ${singular} ${v}`}
                    onClick={() => props.onChange(props.values.filter((x) => x !== v))}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="chip-entry">
            <input
              {...c}
              value={text}
              list={props.suggestions?.length ? listId : undefined}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={onKey}
              onBlur={add}
              placeholder={props.placeholder ?? 'Type and press Enter'}
              autoComplete="off"
              data-testid={props.testId ? `${props.testId}-input` : undefined}
            />
            <button
              type="button"
              className="secondary"
              onClick={add}
              disabled={!text.trim()}
              data-testid={props.testId ? `${props.testId}-add` : undefined}
            >
              Add
            </button>
          </div>
          {props.suggestions && props.suggestions.length > 0 && (
            <datalist id={listId}>
              {props.suggestions
                .filter((s) => !props.values.includes(s))
                .map((s) => (
                  <option key={s} value={s} />
                ))}
            </datalist>
          )}
        </div>
      )}
    </Field>
  );
}

/** A modal confirmation (native <dialog>: focus trap, Escape and backdrop for free). */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) {
      if (typeof d.showModal === 'function') d.showModal();
      else d.setAttribute('open', '');
      // Cancel takes the focus when the question opens. Not React's autoFocus: that focuses
      // when the closed dialog mounts, forcing a style pass of the whole page in the middle of
      // rendering it, for a button that cannot take focus yet.
      cancel.current?.focus();
    } else if (!props.open && d.open) {
      d.close();
    }
  }, [props.open]);
  const titleId = useId();
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      <div className="dialog-body">{props.children}</div>
      <div className="actions">
        <button type="button" className="secondary" onClick={props.onCancel} data-testid="confirm-cancel" ref={cancel}>
          Cancel
        </button>
        <button
          type="button"
          className={props.danger ? 'danger' : ''}
          onClick={props.onConfirm}
          disabled={props.busy}
          data-testid="confirm-ok"
        >
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
