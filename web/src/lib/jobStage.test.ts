import { describe, expect, it } from 'vitest';
import type { Job } from './api';
import { jobStatusText } from './jobStage';

const job = (state: Job['state'], stage?: string | null): Job & { stage?: string | null } => ({
  id: 'j', kind: 'recipe_import', state, progress: 0.1, result: null, error: null, createdAt: '', finishedAt: null, stage,
} as Job & { stage?: string | null });

describe('jobStatusText', () => {
  it('says what a running import waits for', () => {
    expect(jobStatusText(job('running', 'fetching'))).toBe('Fetching the page…');
    expect(jobStatusText(job('running', 'browser'))).toContain('browser');
    expect(jobStatusText(job('running', 'reading'))).toBe('Reading the recipe…');
  });
  it('tells a retry from a job that has not started', () => {
    expect(jobStatusText(job('queued', null))).toBe('Waiting to start…');
    expect(jobStatusText(job('queued', 'fetching'))).toContain('waiting to try again');
  });
  it('falls back to the state for stages it does not know', () => {
    expect(jobStatusText(job('running', 'something-new'))).toBe('Working…');
  });
});
