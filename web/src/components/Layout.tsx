import { Suspense, useState } from 'react';
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { api } from '../lib/api';
import { isAdmin, useAuth } from '../lib/auth';
import { applyTheme, nextTheme, storedTheme, type ThemeChoice } from '../lib/theme';
import { JarIcon } from './icons';
import { PageSkeleton } from './ui';

const THEME_LABEL: Record<ThemeChoice, string> = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' };
const THEME_ICON: Record<ThemeChoice, string> = { system: '◐', light: '☀', dark: '☾' };

export function Layout() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const [theme, setTheme] = useState<ThemeChoice>(storedTheme);
  const [signingOut, setSigningOut] = useState(false);
  const logout = async () => {
    setSigningOut(true);
    try {
      await api.logout();
    } catch {
      // The session is forgotten locally whatever the server said.
    } finally {
      setSigningOut(false);
      navigate('/login');
    }
  };
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/recipes" className="brand" aria-label="Larder home">
          <JarIcon /> Larder
        </Link>
        <nav aria-label="Main" className="mainnav">
          <NavLink to="/recipes" end data-testid="nav-recipes">
            Recipes
          </NavLink>
          {user && (
            <>
              <NavLink to="/cookbooks" data-testid="nav-cookbooks">
                Cookbooks
              </NavLink>
              <NavLink to="/plan" data-testid="nav-plan">
                Plan
              </NavLink>
              <NavLink to="/shopping" data-testid="nav-shopping">
                Shopping
              </NavLink>
              <NavLink to="/import" data-testid="nav-import">
                Import
              </NavLink>
              <NavLink to="/recipes/new" data-testid="nav-new-recipe">
                New recipe
              </NavLink>
            </>
          )}
          {isAdmin(user) && (
            <>
              <NavLink to="/admin/users" data-testid="nav-admin-users">
                Users
              </NavLink>
              <NavLink to="/admin/backups" data-testid="nav-admin-backups">
                Backups
              </NavLink>
            </>
          )}
        </nav>
        <div className="topbar-end">
          <button
            type="button"
            className="icon secondary"
            aria-label={`${THEME_LABEL[theme]} (change)`}
            title={THEME_LABEL[theme]}
            onClick={() => {
              const t = nextTheme(theme);
              applyTheme(t);
              setTheme(t);
            }}
            data-testid="theme-toggle"
          >
            <span aria-hidden="true">{THEME_ICON[theme]}</span>
          </button>
          {user === undefined ? (
            <span className="skeleton sk-user" aria-hidden="true" />
          ) : user ? (
            <>
              <span className="user-name" data-testid="user-menu" title={user.email}>
                {user.name || user.email}
              </span>
              <button type="button" className="secondary" onClick={logout} disabled={signingOut} data-testid="logout">
                Sign out
              </button>
            </>
          ) : (
            <Link to="/login" className="button" data-testid="nav-login">
              Sign in
            </Link>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {/* Screens wait for the silent refresh, so they load once, with the session. */}
        {user === undefined ? (
          <PageSkeleton />
        ) : (
          <Suspense fallback={<PageSkeleton />}>
            <Outlet />
          </Suspense>
        )}
      </main>
    </div>
  );
}
