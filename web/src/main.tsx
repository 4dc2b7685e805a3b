import { createRoot } from 'react-dom/client';
import { App, preloadScreen } from './App';
import { applyTheme, storedTheme } from './lib/theme';
import './styles.css';
import './print.css';

// Before the first paint, so a chosen theme never flashes the other one.
applyTheme(storedTheme());

preloadScreen(window.location.pathname);

// Preact renders the client (vite.config.ts): a first render is one short task, with no scheduler
// to yield in between, so the app is rendered directly.
createRoot(document.getElementById('root')!).render(<App />);
