import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { api, type User } from './api';
import { mayHaveSession, rememberSession } from './sessionHint';

interface AuthState {
  /** undefined while the silent refresh at start runs. */
  user: User | null | undefined;
}

const AuthContext = createContext<AuthState>({ user: undefined });

/** Restores the session from the refresh cookie at start and follows the client's session. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null | undefined>(undefined);
  useEffect(() => {
    const off = api.onSession((u) => {
      rememberSession(u != null);
      setUser(u);
    });
    let live = true;
    // Ask the server only when a refresh cookie may exist (see sessionHint.ts).
    const restore = mayHaveSession() ? api.restoreSession() : Promise.resolve(null);
    restore.then((u) => {
      // Offline, the refresh fails without saying the session is over: keep the hint.
      if (u == null && (typeof navigator === 'undefined' || navigator.onLine)) rememberSession(false);
      if (live) setUser(u);
    });
    return () => {
      live = false;
      off();
    };
  }, []);
  return <AuthContext.Provider value={{ user }}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  return useContext(AuthContext);
}

export function isAdmin(user: User | null | undefined): boolean {
  return user?.role === 'ADMIN';
}
