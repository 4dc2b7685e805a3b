import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const web = join(here, '..', '..');

// api.gen.ts is what openapi-typescript makes of openapi.json, the copy of the served document that
// the Go test TestWebClientOpenAPICopyIsCurrent keeps current: together they fail whenever the
// committed types lag the server. `npm run gen:api` regenerates both.
describe('generated API types', () => {
  it('are what openapi-typescript makes of the served document', () => {
    const dir = mkdtempSync(join(tmpdir(), 'larder-api-gen-'));
    try {
      const out = join(dir, 'api.gen.ts');
      execFileSync(process.execPath, [join(web, 'node_modules/openapi-typescript/bin/cli.js'), join(here, 'openapi.json'), '-o', out], {
        cwd: web,
        stdio: 'pipe',
      });
      const fresh = readFileSync(out, 'utf8');
      const committed = readFileSync(join(here, 'api.gen.ts'), 'utf8');
      expect(committed === fresh, 'src/lib/api.gen.ts is stale: run `npm run gen:api` and commit it').toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
