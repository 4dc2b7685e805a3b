import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadScreen } from './App';
import { applyTheme, storedTheme } from './lib/theme';
import './styles.css';
import './print.css';

// Before the first paint, so a chosen theme never flashes the other one.
applyTheme(storedTheme());

preloadScreen(window.location.pathname);

// Rendered as a transition, so React yields to the browser every few milliseconds instead of
// holding the main thread for the whole first render (a phone stays responsive while it starts).
startTransition(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
