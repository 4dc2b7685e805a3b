import { describe, expect, it } from 'vitest';
import { scaleIngredient } from './scaling';
import { factorOf, readings, scalingFile } from './scaling.testdata';

// What a cook reads after scaling (cook.json: written by hand from the issues' rules before the code
// ran on its lines), scaled from the server's readings of the same lines (cook.golden.jsonl, kept by
// ingredient/scaling_cook_test.go). Every case must pass: the set is small and each case is a rule.
const doc = scalingFile<{ cases: Array<{ rule: string; line: string; scaled: Record<string, string> }> }>('cook.json');
const read = readings('cook.golden.jsonl');

describe('scaled lines as a cook reads them', () => {
  it('has one reading per case', () => {
    expect(read.map((r) => r.text)).toEqual(doc.cases.map((c) => c.line));
  });

  it('gives each case the expected text at each factor', () => {
    const failures: string[] = [];
    let cases = 0;
    doc.cases.forEach((c, i) => {
      for (const [f, want] of Object.entries(c.scaled)) {
        cases++;
        const got = scaleIngredient(read[i], factorOf(f));
        if (got !== want) failures.push(`${c.rule}: ${JSON.stringify(c.line)} × ${f}\n  got  ${JSON.stringify(got)}\n  want ${JSON.stringify(want)}`);
      }
    });
    console.log(`cook cases: ${cases - failures.length} of ${cases} as expected`);
    expect(failures).toEqual([]);
  });
});
