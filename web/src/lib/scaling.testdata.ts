import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { scaleIngredient, type ScalableIngredient } from './scaling';

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

/** The goal on unseen lines: the share of (line, factor) cases that must read as expected. */
export const MIN_PASS_RATE = 0.98;

/** One expected text: a reading scaled by a factor, and a label naming the case in failures. */
export interface ScaledCase {
  label: string;
  reading: ScalableIngredient;
  factor: string;
  want: string;
}

/** Scales every case, logs the count and each failure under name, and returns the pass rate. */
export function passRate(name: string, cases: ScaledCase[]): number {
  const failures: string[] = [];
  for (const c of cases) {
    const got = scaleIngredient(c.reading, factorOf(c.factor));
    if (got !== c.want) failures.push(`${c.label} × ${c.factor}\n  got  ${JSON.stringify(got)}\n  want ${JSON.stringify(c.want)}`);
  }
  const rate = 1 - failures.length / cases.length;
  console.log(`${name}: ${cases.length - failures.length} of ${cases.length} cases as expected (pass rate ${rate.toFixed(3)})`);
  if (failures.length) console.log(failures.join('\n'));
  return rate;
}
