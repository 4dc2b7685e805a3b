import { useEffect, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api, errorMessage } from '../lib/api';
import { sentence } from '../lib/format';
import { useTitle } from '../lib/hooks';
import { Field, FormError } from '../components/ui';

// Verification tokens are single use: a remount must not send one twice.
const inflight = new Map<string, Promise<unknown>>();

export default function VerifyEmail() {
  useTitle('Verify email');
  const { token } = useParams();
  const [state, setState] = useState<'working' | 'ok' | 'failed'>(token ? 'working' : 'failed');
  const [message, setMessage] = useState('');

  useEffect(() => {
    if (!token) return;
    let live = true;
    let p = inflight.get(token);
    if (!p) {
      p = api.verifyEmail(token);
      inflight.set(token, p);
    }
    p.then(
      () => live && setState('ok'),
      (e) => {
        if (!live) return;
        setState('failed');
        setMessage(sentence(errorMessage(e)));
      },
    );
    return () => {
      live = false;
    };
  }, [token]);

  return (
    <div className="narrow" data-testid="verify-status" data-state={state} aria-live="polite">
      {state === 'working' && (
        <>
          <h1>Verifying your email…</h1>
          <div className="skeleton sk-line" aria-hidden="true" />
        </>
      )}
      {state === 'ok' && (
        <>
          <h1>Your email is verified</h1>
          <p>
            <Link className="button" to="/login" data-testid="verify-continue">
              Continue to sign in
            </Link>
          </p>
        </>
      )}
      {state === 'failed' && (
        <>
          <h1>{token ? 'This link did not work' : 'Verify your email'}</h1>
          {message && (
            <div className="alert alert-error" role="alert">
              {message}
            </div>
          )}
          <p>Links expire after 24 hours and work once. Ask for a new one:</p>
          <Resend />
        </>
      )}
    </div>
  );
}

function Resend() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await api.resendVerification(email.trim());
      setSent(true);
    } catch (err) {
      setError(err);
    }
  };
  if (sent) return <p>If the address has an account, a new link is on its way.</p>;
  return (
    <form onSubmit={submit} className="stack">
      <FormError error={error} />
      <Field label="Email">
        {(c) => <input {...c} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />}
      </Field>
      <button type="submit" disabled={!email}>
        Send a new link
      </button>
    </form>
  );
}
