import { describe, expect, it } from 'vitest';
import { MIN_PASS_RATE, passRate, readings, scalingFile } from './scaling.testdata';

// What a cook reads after scaling (cook.json: written by hand from the issues' rules before the code
// ran on its lines), scaled from the server's readings of the same lines (cook.golden.jsonl, kept by
// ingredient/scaling_cook_test.go). The failures are listed; the share that passes must reach the
// issue's goal for held-out lines.
const doc = scalingFile<{ cases: Array<{ rule: string; line: string; scaled: Record<string, string> }> }>('cook.json');
const read = readings('cook.golden.jsonl');

describe('scaled lines as a cook reads them', () => {
  it('has one reading per case', () => {
    expect(read.map((r) => r.text)).toEqual(doc.cases.map((c) => c.line));
  });

  it(`gives at least ${MIN_PASS_RATE} of the cases the expected text`, () => {
    const cases = doc.cases.flatMap((c, i) =>
      Object.entries(c.scaled).map(([factor, want]) => ({ label: `${c.rule}: ${JSON.stringify(c.line)}`, reading: read[i], factor, want })),
    );
    const rate = passRate('cook cases', cases);
    expect(rate).toBeGreaterThanOrEqual(MIN_PASS_RATE);
  });
});
