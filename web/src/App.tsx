import { lazy, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { Layout } from './components/Layout';
import { RequireAdmin, RequireAuth } from './components/Guards';
import { AuthProvider } from './lib/auth';

// Every screen is its own chunk so the first load carries only the shell.
const page = (load: () => Promise<{ default: ComponentType }>) => {
  const C = lazy(load);
  return <C />;
};
const auth = (el: ReactNode) => <RequireAuth>{el}</RequireAuth>;
const admin = (el: ReactNode) => <RequireAdmin>{el}</RequireAdmin>;

const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { index: true, element: <Navigate to="/recipes" replace /> },
      { path: 'login', element: page(() => import('./pages/Login')) },
      { path: 'register', element: page(() => import('./pages/Register')) },
      { path: 'auth/callback', element: page(() => import('./pages/AuthCallback')) },
      { path: 'verify-email', element: page(() => import('./pages/VerifyEmail')) },
      { path: 'verify-email/:token', element: page(() => import('./pages/VerifyEmail')) },
      { path: 'forgot-password', element: page(() => import('./pages/ForgotPassword')) },
      { path: 'reset-password', element: page(() => import('./pages/ResetPassword')) },
      { path: 'reset-password/:token', element: page(() => import('./pages/ResetPassword')) },
      { path: 'recipes', element: page(() => import('./pages/RecipeList')) },
      { path: 'recipes/new', element: auth(page(() => import('./pages/RecipeEdit'))) },
      { path: 'import', element: auth(page(() => import('./pages/Import'))) },
      { path: 'recipes/import', element: <Navigate to="/import" replace /> },
      { path: 'recipes/:id', element: page(() => import('./pages/RecipeView')) },
      { path: 'recipes/:id/edit', element: auth(page(() => import('./pages/RecipeEdit'))) },
      { path: 'recipes/:id/cook', element: page(() => import('./pages/CookingMode')) },
      { path: 'recipes/:id/mappings', element: auth(page(() => import('./pages/MappingEditor'))) },
      { path: 'cookbooks', element: auth(page(() => import('./pages/CookbookList'))) },
      { path: 'cookbooks/new', element: auth(page(() => import('./pages/CookbookEdit'))) },
      { path: 'cookbooks/:id', element: page(() => import('./pages/CookbookView')) },
      { path: 'cookbooks/:id/edit', element: auth(page(() => import('./pages/CookbookEdit'))) },
      { path: 'plan', element: auth(page(() => import('./pages/MealPlan'))) },
      { path: 'shopping', element: auth(page(() => import('./pages/ShoppingLists'))) },
      // Works offline from its own queue, also when the app starts without a network.
      { path: 'shopping/:id', element: <RequireAuth offline>{page(() => import('./pages/ShoppingList'))}</RequireAuth> },
      { path: 'admin', element: <Navigate to="/admin/users" replace /> },
      { path: 'admin/users', element: admin(page(() => import('./pages/AdminUsers'))) },
      { path: 'admin/backups', element: admin(page(() => import('./pages/AdminBackups'))) },
      { path: '*', element: page(() => import('./pages/NotFound')) },
    ],
  },
]);

export function App() {
  return (
    <AuthProvider>
      <RouterProvider router={router} />
    </AuthProvider>
  );
}
