/**
 * Whether a refresh cookie may exist. The cookie is HttpOnly, so the page cannot see it; this
 * flag in localStorage is set whenever a session starts and cleared when it ends, so a visitor who
 * never signed in (or signed out) is not sent through POST /api/auth/refresh on every load, which
 * would answer 401 and log an error in the console each time.
 */
const KEY = 'larder.session';

function store(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled: behave as before, always ask
  }
}

/** True unless this browser is known to hold no session. Without storage, always true. */
export function mayHaveSession(): boolean {
  const s = store();
  return s == null || s.getItem(KEY) === '1';
}

/** Follows the session: signed in sets the flag, signed out clears it. */
export function rememberSession(signedIn: boolean) {
  const s = store();
  if (!s) return;
  if (signedIn) s.setItem(KEY, '1');
  else s.removeItem(KEY);
}
