import { useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { api, ApiError, type Provider } from '../lib/api';
import { useAuth } from '../lib/auth';
import { useTitle } from '../lib/hooks';
import { safeNext } from '../lib/nav';
import { Field, fieldError, FormError } from '../components/ui';

export default function Login() {
  useTitle('Sign in');
  const { user } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [providers, setProviders] = useState<Provider[]>([]);
  const [resent, setResent] = useState(false);

  useEffect(() => {
    let live = true;
    api.providers().then(
      (p) => live && setProviders(p),
      () => live && setProviders([]),
    );
    return () => {
      live = false;
    };
  }, []);

  if (user) return <Navigate to={next} replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setResent(false);
    try {
      await api.login(email.trim(), password);
      navigate(next, { replace: true });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const unverified = error instanceof ApiError && error.code === 'email_not_verified';

  return (
    <div className="narrow">
      <h1>Sign in</h1>
      <form onSubmit={submit} noValidate className="stack">
        <FormError error={error} shown={['email', 'password']} />
        {unverified && (
          <div className="alert">
            {resent ? (
              <p data-testid="resend-done">If the address has an account, a new verification email is on its way.</p>
            ) : (
              <button
                type="button"
                className="secondary"
                onClick={async () => {
                  try {
                    await api.resendVerification(email.trim());
                    setResent(true);
                  } catch (err) {
                    setError(err);
                  }
                }}
                data-testid="resend-verification"
              >
                Send the verification email again
              </button>
            )}
          </div>
        )}
        <Field label="Email" error={fieldError(error, 'email')}>
          {(c) => (
            <input
              {...c}
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              data-testid="login-email"
            />
          )}
        </Field>
        <Field label="Password" error={fieldError(error, 'password')}>
          {(c) => (
            <input
              {...c}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              data-testid="login-password"
            />
          )}
        </Field>
        <button type="submit" disabled={busy || !email || !password} data-testid="login-submit">
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {providers.length > 0 && (
        <div className="stack providers">
          <p className="muted divider">or</p>
          {providers.map((p) => (
            <a key={p.name} className="button secondary" href={api.providerLoginUrl(p.name)} data-testid={`login-provider-${p.name}`}>
              Sign in with {p.label || p.name}
            </a>
          ))}
        </div>
      )}
      <p className="muted">
        <Link to="/forgot-password">Forgot your password?</Link> · <Link to="/register">Create an account</Link>
      </p>
    </div>
  );
}
