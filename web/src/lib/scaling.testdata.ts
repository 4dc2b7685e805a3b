import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ScalableIngredient } from './scaling';

// The scaling test files shared with the Go reader (ingredient/testdata/scaling/, README.md there):
// hand-written expectations, and what `admin ingredients` prints for the same lines (kept current by
// the Go tests), so the client is tested on the server's real readings.
const dir = fileURLToPath(new URL('../../../ingredient/testdata/scaling/', import.meta.url));

/** A JSON file of the shared directory. */
export function scalingFile<T>(name: string): T {
  return JSON.parse(readFileSync(dir + name, 'utf8')) as T;
}

/** The readings of a golden JSON-lines file, one ingredient per line. */
export function readings(name: string): ScalableIngredient[] {
  return readFileSync(dir + name, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as ScalableIngredient);
}

/** A factor as the files write it ("2", "1/2", "4/3"). */
export function factorOf(f: string): number {
  const [a, b = '1'] = f.split('/');
  return Number(a) / Number(b);
}
