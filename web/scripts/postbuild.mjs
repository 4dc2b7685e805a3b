// Re-creates dist/.gitkeep after `vite build` empties dist/: web/embed.go embeds
// `all:dist`, and go:embed refuses a pattern that matches no file in a fresh checkout.
import { writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
mkdirSync(dist, { recursive: true });
writeFileSync(join(dist, '.gitkeep'), '');
