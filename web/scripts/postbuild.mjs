// After `vite build`:
// - re-creates dist/.gitkeep: web/embed.go embeds `all:dist`, and go:embed refuses a pattern that
//   matches no file in a fresh checkout;
// - writes a gzip and a brotli copy next to each text file (scripts, styles, HTML, SVG, the
//   manifest), so the server answers compressed without compressing on every request (it picks
//   the copy the browser accepts; see handlers/webclient.go).
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
mkdirSync(dist, { recursive: true });
writeFileSync(join(dist, '.gitkeep'), '');

const TEXT = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;
const MIN_BYTES = 512; // smaller files gain nothing from compression

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else yield p;
  }
}

let count = 0;
for (const file of files(dist)) {
  if (!TEXT.test(file)) continue;
  const raw = readFileSync(file);
  if (raw.length < MIN_BYTES) continue;
  writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
  );
  count++;
}
console.log(`postbuild: gzip and brotli copies of ${count} text files`);
