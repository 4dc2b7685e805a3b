import { useId, useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router';
import { api } from '../lib/api';
import { useAuth } from '../lib/auth';
import { passwordOk } from '../lib/password';
import { useTitle } from '../lib/hooks';
import { PasswordRules } from '../components/PasswordRules';
import { Field, fieldError, FormError } from '../components/ui';

export default function Register() {
  useTitle('Create an account');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const rulesId = useId();
  const { user } = useAuth();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.register({ email: email.trim(), password, name: name.trim() || undefined });
      setDone(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  if (user && !done) return <Navigate to="/recipes" replace />;

  if (done) {
    return (
      <div className="narrow" data-testid="register-done">
        <h1>Check your email</h1>
        <p>
          We sent a link to <strong>{email}</strong>. Open it to verify your address, then sign in.
        </p>
        <p>
          <Link to="/login">Go to sign in</Link>
        </p>
      </div>
    );
  }

  return (
    <div className="narrow">
      <h1>Create an account</h1>
      <form onSubmit={submit} noValidate className="stack">
        <FormError error={error} shown={['email', 'password', 'name']} />
        <Field label="Name" error={fieldError(error, 'name')} hint="Optional; shown to people you share with.">
          {(c) => (
            <input {...c} autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} data-testid="register-name" />
          )}
        </Field>
        <Field label="Email" error={fieldError(error, 'email')}>
          {(c) => (
            <input
              {...c}
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              data-testid="register-email"
            />
          )}
        </Field>
        <Field label="Password" error={fieldError(error, 'password')}>
          {(c) => (
            <>
              <input
                {...c}
                aria-describedby={[c['aria-describedby'], rulesId].filter(Boolean).join(' ')}
                type="password"
                autoComplete="new-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                data-testid="register-password"
              />
              <PasswordRules password={password} id={rulesId} />
            </>
          )}
        </Field>
        <button type="submit" disabled={busy || !email || !passwordOk(password)} data-testid="register-submit">
          {busy ? 'Creating…' : 'Create account'}
        </button>
      </form>
      <p className="muted">
        Already have an account? <Link to="/login">Sign in</Link>
      </p>
    </div>
  );
}
