import type { Job } from './api';

/** What a job is doing, said to a person: from its stage (GET /api/jobs/:id) and state. */
const STAGES: Record<string, string> = {
  fetching: 'Fetching the page…',
  browser: 'The site refused a plain fetch: trying with a browser…',
  reading: 'Reading the recipe…',
  saving: 'Saving the recipe…',
  retrying: 'Trying again…',
};

const STATES: Record<Job['state'], string> = {
  queued: 'Waiting to start…',
  running: 'Working…',
  completed: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function jobStatusText(job: Job & { stage?: string | null }): string {
  const stage = job.stage ?? null;
  if (job.state === 'queued' && stage) return 'The site did not answer well: waiting to try again…';
  if (job.state === 'running' && stage && STAGES[stage]) return STAGES[stage];
  return STATES[job.state];
}
