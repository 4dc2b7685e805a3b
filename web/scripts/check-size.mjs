// Prints the gzipped size of the JavaScript a browser loads before the first screen
// (the entry script and its modulepreloads, read from dist/index.html) and fails when it
// exceeds the budget. Lazy route chunks are not counted: they load on navigation.
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const BUDGET_BYTES = 200 * 1024;
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = new Set();
for (const m of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)) initial.add(m[1]);
for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) initial.add(m[1]);
if (initial.size === 0) {
  console.error('check-size: no module script found in dist/index.html');
  process.exit(1);
}

const gz = (file) => gzipSync(readFileSync(join(dist, file.replace(/^\//, ''))), { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

let total = 0;
for (const file of initial) {
  const size = gz(file);
  total += size;
  console.log(`  ${file}  ${kb(size)} gzip`);
}
const lazy = readdirSync(join(dist, 'assets')).filter(
  (f) => f.endsWith('.js') && ![...initial].some((i) => i.endsWith(f)),
);
const lazyTotal = lazy.reduce((n, f) => n + gz(`assets/${f}`), 0);
console.log(`initial JS: ${kb(total)} gzip (budget ${kb(BUDGET_BYTES)}); ${lazy.length} lazy chunks: ${kb(lazyTotal)} gzip`);
if (total > BUDGET_BYTES) {
  console.error(`check-size: initial JS ${kb(total)} is over the ${kb(BUDGET_BYTES)} budget`);
  process.exit(1);
}
