import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { isAdmin, useAuth } from '../lib/auth';
import { OfflineNotice, PageSkeleton } from './ui';

/**
 * Sends anonymous visitors to the login page, coming back here afterwards. When the session
 * cannot be checked for want of a network, the page says it needs one, unless it works offline
 * on its own (`offline`: a shopping list with its queue).
 */
export function RequireAuth({ children, offline = false }: { children: ReactNode; offline?: boolean }) {
  const { user, unreachable } = useAuth();
  const loc = useLocation();
  if (user === undefined) return <PageSkeleton />;
  if (!user && unreachable) return offline ? <>{children}</> : <OfflineNotice />;
  if (!user) return <Navigate to={`/login?next=${encodeURIComponent(loc.pathname + loc.search)}`} replace />;
  return <>{children}</>;
}

/** Admin screens do not exist for other users (as the API answers). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user, unreachable } = useAuth();
  const loc = useLocation();
  if (user === undefined) return <PageSkeleton />;
  if (!user && unreachable) return <OfflineNotice />;
  if (!user) return <Navigate to={`/login?next=${encodeURIComponent(loc.pathname)}`} replace />;
  if (!isAdmin(user)) {
    return (
      <div className="empty" role="alert">
        <h1>Not found</h1>
      </div>
    );
  }
  return <>{children}</>;
}
