import { describe, expect, it } from 'vitest';
import { scaleIngredient } from './scaling';
import { MIN_PASS_RATE, passRate, readings, scalingFile } from './scaling.testdata';

// The vectors shared with the Go reader: vectors.json holds each line with the expected text at each
// factor (labeled by hand from the rules), reader.golden.jsonl what `admin ingredients` prints
// for the same lines (checked against the reader by ingredient/scaling_vectors_test.go).
const doc = scalingFile<{
  factors: string[];
  vectors: Array<{ line: string; source: string; marked: string; scaled: Record<string, string> }>;
}>('vectors.json');
const read = readings('reader.golden.jsonl');

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
    const cases = doc.vectors.flatMap((v, i) => doc.factors.map((factor) => ({ label: v.source, reading: read[i], factor, want: v.scaled[factor] })));
    const rate = passRate('scaling vectors', cases);
    expect(rate).toBeGreaterThanOrEqual(MIN_PASS_RATE);
  });
});
