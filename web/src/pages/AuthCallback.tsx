import { Link, Navigate, useSearchParams } from 'react-router';
import { useAuth } from '../lib/auth';
import { useTitle } from '../lib/hooks';

// Where the identity provider's sign-in ends: the API has set the refresh
// cookie and redirected here (or here with ?error=<code>). The session itself
// is restored by AuthProvider's silent refresh at start.
const messages: Record<string, string> = {
  idp_email_missing: 'The identity provider did not share an email address, so no account could be matched.',
  idp_email_unverified: 'An account with this email exists, but the provider has not verified the address, so it was not linked.',
};

export default function AuthCallback() {
  useTitle('Signing in');
  const [params] = useSearchParams();
  const { user } = useAuth();
  const error = params.get('error');

  if (error) {
    return (
      <div className="narrow" data-testid="auth-callback" data-state="failed">
        <h1>Sign-in did not complete</h1>
        <div className="alert alert-error" role="alert">
          {messages[error] ?? `The identity provider sign-in failed (${error}).`}
        </div>
        <p>
          <Link className="button" to="/login">Back to sign in</Link>
        </p>
      </div>
    );
  }
  if (user) return <Navigate to="/recipes" replace />;
  if (user === null) {
    return (
      <div className="narrow" data-testid="auth-callback" data-state="failed">
        <h1>Sign-in did not complete</h1>
        <p>
          <Link className="button" to="/login">Back to sign in</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="narrow" data-testid="auth-callback" data-state="working" aria-live="polite">
      <h1>Signing you in…</h1>
      <div className="skeleton sk-line" aria-hidden="true" />
    </div>
  );
}
