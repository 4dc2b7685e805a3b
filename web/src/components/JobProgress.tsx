import type { Job } from '../lib/api';
import { ProgressBar } from './ui';

const LABELS: Record<Job['state'], string> = {
  queued: 'Waiting to start…',
  running: 'Working…',
  completed: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** State and progress of a running job (null progress shows an indeterminate bar). */
export function JobProgress({ job, label, testId = 'job-progress' }: { job: Job | null; label: string; testId?: string }) {
  if (!job) return <ProgressBar value={null} label={`${label}: starting…`} testId={testId} />;
  return (
    <div className="job" data-state={job.state} aria-live="polite">
      <ProgressBar
        value={job.state === 'completed' ? 1 : job.progress}
        label={`${label}: ${LABELS[job.state]}`}
        testId={testId}
      />
      <p className="muted small">{LABELS[job.state]}</p>
    </div>
  );
}
