import { lazy, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, matchRoutes, Navigate, RouterProvider, type Params, type RouteObject } from 'react-router';
import { Layout } from './components/Layout';
import { RequireAdmin, RequireAuth } from './components/Guards';
import { AuthProvider } from './lib/auth';
import { prefetchRecipe } from './lib/prefetch';
// The recipe page ships with the shell: it is what a shared link opens, and on a phone's network
// a chunk of its own costs the round trips of its files after the shell's.
import RecipeView from './pages/RecipeView';

type PageModule = () => Promise<{ default: ComponentType }>;

/** What a screen's route carries so the app can start loading it before React renders it. */
interface ScreenHandle {
  /** Its chunk; none for a screen in the shell. */
  load?: PageModule;
  /** Starts reading the data the screen will ask for first. */
  prefetch?: (params: Params) => void;
}

/**
 * A screen: its own chunk, so the first load carries only the shell. The chunk is loaded when the
 * screen is first rendered, or at start when the app opens on it (preloadScreen).
 */
function screen(path: string, load: PageModule, opts: { guard?: (el: ReactNode) => ReactNode; prefetch?: ScreenHandle['prefetch'] } = {}): RouteObject {
  const Page = lazy(load);
  const handle: ScreenHandle = { load, prefetch: opts.prefetch };
  return { path, element: opts.guard ? opts.guard(<Page />) : <Page />, handle };
}
const auth = (el: ReactNode) => <RequireAuth>{el}</RequireAuth>;
const admin = (el: ReactNode) => <RequireAdmin>{el}</RequireAdmin>;
const recipePage = (params: Params) => params.id && prefetchRecipe(params.id, { withPhoto: true });
const cookingMode = (params: Params) => params.id && prefetchRecipe(params.id);

const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { index: true, element: <Navigate to="/recipes" replace /> },
      screen('login', () => import('./pages/Login')),
      screen('register', () => import('./pages/Register')),
      screen('auth/callback', () => import('./pages/AuthCallback')),
      screen('verify-email', () => import('./pages/VerifyEmail')),
      screen('verify-email/:token', () => import('./pages/VerifyEmail')),
      screen('forgot-password', () => import('./pages/ForgotPassword')),
      screen('reset-password', () => import('./pages/ResetPassword')),
      screen('reset-password/:token', () => import('./pages/ResetPassword')),
      screen('recipes', () => import('./pages/RecipeList')),
      screen('recipes/new', () => import('./pages/RecipeEdit'), { guard: auth }),
      screen('import', () => import('./pages/Import'), { guard: auth }),
      { path: 'recipes/import', element: <Navigate to="/import" replace /> },
      { path: 'recipes/:id', element: <RecipeView />, handle: { prefetch: recipePage } satisfies ScreenHandle },
      screen('recipes/:id/edit', () => import('./pages/RecipeEdit'), { guard: auth }),
      screen('recipes/:id/cook', () => import('./pages/CookingMode'), { prefetch: cookingMode }),
      screen('recipes/:id/mappings', () => import('./pages/MappingEditor'), { guard: auth }),
      screen('cookbooks', () => import('./pages/CookbookList'), { guard: auth }),
      screen('cookbooks/new', () => import('./pages/CookbookEdit'), { guard: auth }),
      screen('cookbooks/:id', () => import('./pages/CookbookView')),
      screen('cookbooks/:id/edit', () => import('./pages/CookbookEdit'), { guard: auth }),
      screen('plan', () => import('./pages/MealPlan'), { guard: auth }),
      screen('shopping', () => import('./pages/ShoppingLists'), { guard: auth }),
      // Works offline from its own queue, also when the app starts without a network.
      screen('shopping/:id', () => import('./pages/ShoppingList'), { guard: (el) => <RequireAuth offline>{el}</RequireAuth> }),
      { path: 'admin', element: <Navigate to="/admin/users" replace /> },
      screen('admin/users', () => import('./pages/AdminUsers'), { guard: admin }),
      screen('admin/backups', () => import('./pages/AdminBackups'), { guard: admin }),
      screen('*', () => import('./pages/NotFound')),
    ],
  },
];

/**
 * Starts loading the screen the app opens on, and the data it reads first, while React renders
 * the shell: otherwise the chunk is asked for only once the shell has rendered, and the data only
 * once the chunk has run, three round trips one after the other on a phone's network.
 */
export function preloadScreen(pathname: string) {
  for (const m of matchRoutes(routes, pathname) ?? []) {
    const handle = m.route.handle as ScreenHandle | undefined;
    if (!handle) continue;
    // A failed load is React.lazy's to report when the screen renders.
    handle.load?.().catch(() => {});
    handle.prefetch?.(m.params);
  }
}

const router = createBrowserRouter(routes);

export function App() {
  return (
    <AuthProvider>
      <RouterProvider router={router} />
    </AuthProvider>
  );
}
