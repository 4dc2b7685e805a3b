import { useId, useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../lib/api';
import { passwordOk } from '../lib/password';
import { useTitle } from '../lib/hooks';
import { PasswordRules } from '../components/PasswordRules';
import { Field, fieldError, FormError } from '../components/ui';

/** Reached as /reset-password?token=… or /reset-password/:token. */
export default function ResetPassword() {
  useTitle('Choose a new password');
  const params = useParams();
  const [search] = useSearchParams();
  const token = params.token ?? search.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const rulesId = useId();
  const mismatch = confirm !== '' && confirm !== password;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.resetPassword(token, password);
      setDone(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  if (!token) {
    return (
      <div className="narrow">
        <h1>Reset link missing</h1>
        <p>
          Open the link from the email again, or <Link to="/forgot-password">ask for a new one</Link>.
        </p>
      </div>
    );
  }
  if (done) {
    return (
      <div className="narrow" data-testid="reset-done">
        <h1>Password changed</h1>
        <p>
          <Link className="button" to="/login">
            Sign in
          </Link>
        </p>
      </div>
    );
  }
  return (
    <div className="narrow">
      <h1>Choose a new password</h1>
      <form onSubmit={submit} noValidate className="stack">
        <FormError error={error} shown={['password']} />
        <Field label="New password" error={fieldError(error, 'password')}>
          {(c) => (
            <>
              <input
                {...c}
                aria-describedby={[c['aria-describedby'], rulesId].filter(Boolean).join(' ')}
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                data-testid="reset-password"
              />
              <PasswordRules password={password} id={rulesId} />
            </>
          )}
        </Field>
        <Field label="Repeat the new password" error={mismatch ? 'The passwords differ.' : undefined}>
          {(c) => (
            <input
              {...c}
              type="password"
              autoComplete="new-password"
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
              data-testid="reset-confirm"
            />
          )}
        </Field>
        <button type="submit" disabled={busy || !passwordOk(password) || confirm !== password} data-testid="reset-submit">
          Change password
        </button>
      </form>
      {error != null && (
        <p className="muted">
          Link expired? <Link to="/forgot-password">Ask for a new one</Link>.
        </p>
      )}
    </div>
  );
}
