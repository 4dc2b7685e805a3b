import { describe, expect, it } from 'vitest';
import type { Job } from './api';
import {
  archiveProgress,
  archiveResult,
  formatLabel,
  progressFraction,
  progressText,
  resultSummary,
  withStatus,
} from './archiveImport';
// The same file is decoded by the server's job types in jobs/recipe_archive_import_test.go.
import fixture from './archiveImport.fixture.json';

const running = fixture.running as unknown as Job;
const completed = fixture.completed as unknown as Job;

describe('archive import job', () => {
  it('reads the format and n of m of a running job', () => {
    const p = archiveProgress(running);
    expect(p).toEqual({ format: 'paprika', done: 2, total: 5 });
    expect(formatLabel(p?.format)).toBe('Paprika export');
    expect(progressText(p)).toBe('2 of 5 recipes');
    expect(progressFraction(p)).toBeCloseTo(0.4);
  });

  it('is indeterminate before the job has counted', () => {
    const queued = { ...running, detail: undefined } as unknown as Job;
    expect(archiveProgress(queued)).toBeNull();
    expect(progressFraction(null)).toBeNull();
    expect(progressText(null)).toBe('');
    expect(progressFraction({ format: 'mealie', done: 0, total: 0 })).toBe(1);
    expect(archiveResult(running)).toBeNull();
  });

  it('summarizes the result and lists recipes by outcome', () => {
    const r = archiveResult(completed);
    expect(r).not.toBeNull();
    if (!r) return;
    expect(resultSummary(r)).toBe('2 created, 1 skipped as duplicate, 2 failed');
    expect(withStatus(r, 'created').map((x) => x.title)).toEqual(['Soup', 'Bread']);
    expect(withStatus(r, 'failed').map((x) => x.entry)).toEqual(['../evil.paprikarecipe', 'Broken.paprikarecipe']);
    expect(r.unmapped).toEqual(['rating', 'nutritional_info']);
  });

  it('names unknown formats as they are', () => {
    expect(formatLabel('something_new')).toBe('something_new');
    expect(formatLabel(undefined)).toBe('');
  });
});
