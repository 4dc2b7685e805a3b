import type { Job } from '../lib/api';
import { jobStatusText } from '../lib/jobStage';
import { ProgressBar } from './ui';

/** State and progress of a running job (null progress shows an indeterminate bar). */
export function JobProgress({ job, label, testId = 'job-progress' }: { job: Job | null; label: string; testId?: string }) {
  if (!job) return <ProgressBar value={null} label={`${label}: starting…`} testId={testId} />;
  return (
    <div className="job" data-state={job.state} aria-live="polite">
      <ProgressBar
        value={job.state === 'completed' ? 1 : job.progress}
        label={`${label}: ${jobStatusText(job)}`}
        testId={testId}
      />
      <p className="muted small" data-testid={`${testId}-status`}>
        {jobStatusText(job)}
      </p>
    </div>
  );
}
