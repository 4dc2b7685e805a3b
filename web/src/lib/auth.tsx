import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, type User } from './api';
import { mayHaveSession, rememberSession } from './sessionHint';

interface AuthState {
  /** undefined while the silent refresh at start runs. */
  user: User | null | undefined;
  /**
   * The session could not be restored because the server was out of reach (offline): the cook
   * may well be signed in, so pages for signed-in people say they need the network rather than
   * asking to sign in.
   */
  unreachable?: boolean;
}

const AuthContext = createContext<AuthState>({ user: undefined });

/** Restores the session from the refresh cookie at start and follows the client's session. */
export function AuthProvider({ children }: { children: ReactNode }) {
  // A browser known to hold no session is signed out from the first render: nothing to wait for,
  // and no second render of every screen once that is known.
  const [user, setUser] = useState<User | null | undefined>(() => (mayHaveSession() ? undefined : null));
  const [unreachable, setUnreachable] = useState(false);
  useEffect(() => {
    const off = api.onSession((u) => {
      rememberSession(u != null);
      setUnreachable(false);
      setUser(u);
    });
    let live = true;
    // Ask the server only when a refresh cookie may exist (see sessionHint.ts).
    const restore = mayHaveSession() ? api.restoreSession() : Promise.resolve(null);
    restore.then(async (u) => {
      // A failed refresh forgets the hint only when the server answered: offline (or with the
      // server out of reach) the session may well still be there.
      let offline = false;
      if (u == null && mayHaveSession()) {
        if (await serverReachable()) rememberSession(false);
        else offline = true;
      }
      if (!live) return;
      setUnreachable(offline);
      setUser(u);
    });
    return () => {
      live = false;
      off();
    };
  }, []);
  const value = useMemo(() => ({ user, unreachable }), [user, unreachable]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

async function serverReachable(): Promise<boolean> {
  try {
    return (await fetch('/api/health', { cache: 'no-store' })).ok;
  } catch {
    return false;
  }
}

export function useAuth(): AuthState {
  return useContext(AuthContext);
}

export function isAdmin(user: User | null | undefined): boolean {
  return user?.role === 'ADMIN';
}
