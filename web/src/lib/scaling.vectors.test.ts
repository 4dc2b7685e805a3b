import { describe, expect, it } from 'vitest';
import { scaleIngredient } from './scaling';
import { factorOf, readings, scalingFile } from './scaling.testdata';

// The vectors shared with the Go reader: vectors.json holds each line with the expected text at each
// factor (labeled by hand from the rules), reader.golden.jsonl what `admin ingredients` prints
// for the same lines (checked against the reader by ingredient/scaling_vectors_test.go).
const doc = scalingFile<{
  factors: string[];
  vectors: Array<{ line: string; source: string; marked: string; scaled: Record<string, string> }>;
}>('vectors.json');
const read = readings('reader.golden.jsonl');

/** The share of (line, factor) cases that must come out as labeled: the goal. */
const MIN_PASS_RATE = 0.98;

describe('shared scaling vectors', () => {
  it('has one reading per vector', () => {
    expect(doc.vectors.length).toBeGreaterThanOrEqual(200);
    expect(read.length).toBe(doc.vectors.length);
    read.forEach((r, i) => expect(r.text).toBe(doc.vectors[i].line));
  });

  it('returns every line byte for byte at factor 1', () => {
    for (const r of read) expect(scaleIngredient(r, 1)).toBe(r.text);
  });

  it(`scales at least ${MIN_PASS_RATE} of the cases as labeled`, () => {
    let cases = 0;
    const failures: string[] = [];
    doc.vectors.forEach((v, i) => {
      for (const f of doc.factors) {
        cases++;
        const got = scaleIngredient(read[i], factorOf(f));
        if (got !== v.scaled[f]) failures.push(`${v.source} × ${f}\n  got  ${JSON.stringify(got)}\n  want ${JSON.stringify(v.scaled[f])}`);
      }
    });
    const rate = 1 - failures.length / cases;
    console.log(`scaling vectors: ${cases - failures.length} of ${cases} cases as labeled (pass rate ${rate.toFixed(3)})`);
    if (failures.length) console.log(failures.join('\n'));
    expect(rate).toBeGreaterThanOrEqual(MIN_PASS_RATE);
  });
});
