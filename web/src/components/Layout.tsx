import { Suspense, useEffect, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { forgetAll } from '../lib/offline';
import { api } from '../lib/api';
import { isAdmin, useAuth } from '../lib/auth';
import { openRiverUI } from '../lib/riverui';
import { applyTheme, nextTheme, storedTheme, type ThemeChoice } from '../lib/theme';
import { JarIcon, MenuIcon } from './icons';
import { PageSkeleton } from './ui';

const THEME_LABEL: Record<ThemeChoice, string> = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' };
const THEME_ICON: Record<ThemeChoice, string> = { system: '◐', light: '☀', dark: '☾' };

export function Layout() {
  const { user, unreachable } = useAuth();
  const navigate = useNavigate();
  const [theme, setTheme] = useState<ThemeChoice>(storedTheme);
  const [signingOut, setSigningOut] = useState(false);
  // On a phone the links fold into a menu that a button opens; any navigation closes it.
  const [menuOpen, setMenuOpen] = useState(false);
  const loc = useLocation();
  useEffect(() => setMenuOpen(false), [loc.pathname]);
  const logout = async () => {
    setSigningOut(true);
    try {
      await api.logout();
    } catch {
      // The session is forgotten locally whatever the server said.
    } finally {
      // Recipes kept or opened offline are this cook's: the next person on the device must not read them.
      await forgetAll().catch(() => undefined);
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
        <button
          type="button"
          className="secondary menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="mainnav"
          onClick={() => setMenuOpen((o) => !o)}
          data-testid="menu-toggle"
          aria-label="Menu"
        >
          <MenuIcon />
        </button>
        <nav
          aria-label="Main"
          className="mainnav"
          id="mainnav"
          data-open={menuOpen}
          // A chosen link closes the menu, also when the page it leaves asks to stay.
          onClick={(e) => (e.target as HTMLElement).closest('a') && setMenuOpen(false)}
        >
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
              <a
                href="/api/admin/river/"
                data-testid="nav-admin-jobs"
                onClick={(e) => {
                  e.preventDefault();
                  void openRiverUI();
                }}
              >
                Jobs
              </a>
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
          ) : unreachable ? (
            // Offline the session cannot be checked; signing in would fail too.
            <span className="badge" data-testid="offline-badge">
              Offline
            </span>
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
