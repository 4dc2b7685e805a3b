import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../lib/api';
import { useTitle } from '../lib/hooks';
import { Field, fieldError, FormError } from '../components/ui';

export default function ForgotPassword() {
  useTitle('Forgot password');
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.forgotPassword(email.trim());
      setSent(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="narrow">
      <h1>Forgot your password?</h1>
      {sent ? (
        <p data-testid="forgot-done">
          If <strong>{email}</strong> has an account, we sent it a link to choose a new password. The link works for an
          hour.
        </p>
      ) : (
        <form onSubmit={submit} noValidate className="stack">
          <FormError error={error} shown={['email']} />
          <Field label="Email" error={fieldError(error, 'email')}>
            {(c) => (
              <input
                {...c}
                type="email"
                autoComplete="email"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                data-testid="forgot-email"
              />
            )}
          </Field>
          <button type="submit" disabled={busy || !email} data-testid="forgot-submit">
            Send the link
          </button>
        </form>
      )}
      <p className="muted">
        <Link to="/login">Back to sign in</Link>
      </p>
    </div>
  );
}
