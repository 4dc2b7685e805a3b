import { useRef, useState } from 'react';
import { api, type Backup, type Job } from '../lib/api';
import { formatBytes, formatDate, saveBlob } from '../lib/format';
import { useAsync, useTitle } from '../lib/hooks';
import { JobProgress } from '../components/JobProgress';
import { ConfirmDialog, ErrorView, FormError, ProgressBar } from '../components/ui';

type Running = { what: string; job: Job | null };

export default function AdminBackups() {
  useTitle('Backups');
  const list = useAsync(() => api.listBackups(), []);
  const [running, setRunning] = useState<Running | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [upload, setUpload] = useState<number | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'restore' | 'delete'; backup: Backup } | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  const runJob = async (what: string, start: () => Promise<Job>, done: string) => {
    setError(null);
    setStatus(null);
    setRunning({ what, job: null });
    try {
      const job = await start();
      setRunning({ what, job });
      await api.waitForJob(job.id, (j) => setRunning({ what, job: j }));
      setStatus(done);
      list.reload();
    } catch (e) {
      setError(e);
    } finally {
      setRunning(null);
    }
  };

  const create = () => runJob('Creating backup', () => api.createBackup(), 'Backup created.');

  const restore = (b: Backup) =>
    runJob('Restoring', () => api.restoreBackup(b.name), `Restored ${b.name}. Accounts and sessions now match the backup; sign in again if asked.`);

  const remove = async (b: Backup) => {
    setError(null);
    setStatus(null);
    try {
      await api.deleteBackup(b.name);
      list.setData((l) => (l ?? []).filter((x) => x.name !== b.name));
      setStatus(`Deleted ${b.name}.`);
    } catch (e) {
      setError(e);
    }
  };

  const download = async (b: Backup) => {
    setError(null);
    setDownloading(b.name);
    try {
      // The route needs the bearer token, so a plain link cannot fetch it.
      const { blob, filename } = await api.downloadBackup(b.name);
      saveBlob(blob, filename ?? b.name);
    } catch (e) {
      setError(e);
    } finally {
      setDownloading(null);
    }
  };

  const onUpload = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setStatus(null);
    setUpload(0);
    try {
      await api.uploadBackup(file, { onProgress: setUpload });
      setStatus(`Uploaded ${file.name}.`);
      list.reload();
    } catch (e) {
      setError(e);
    } finally {
      setUpload(null);
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  const busy = running != null || upload != null;
  const backups = [...(list.data ?? [])].sort((a, b) => (b.createdAt || b.name).localeCompare(a.createdAt || a.name));

  return (
    <div className="stack">
      <div className="page-head">
        <h1>Backups</h1>
        <div className="actions">
          <label className={`button secondary file-button ${busy ? 'disabled' : ''}`}>
            Upload a backup
            <input
              ref={fileRef}
              type="file"
              accept=".zip,application/zip"
              className="visually-hidden"
              disabled={busy}
              onChange={(e) => onUpload(e.target.files?.[0])}
              data-testid="backup-upload"
            />
          </label>
          <button type="button" onClick={create} disabled={busy} data-testid="backup-create">
            Create backup
          </button>
        </div>
      </div>
      <p className="muted">A backup holds the database and the uploaded images. Restoring replaces everything with the backup's contents.</p>
      <FormError error={error} />
      {status && (
        <p className="alert alert-ok" role="status" data-testid="backup-status">
          {status}
        </p>
      )}
      {running && (
        <div className="panel">
          <JobProgress job={running.job} label={running.what} testId="backup-progress" />
        </div>
      )}
      {upload != null && <ProgressBar value={upload} label="Uploading backup" testId="backup-upload-progress" />}
      {list.error != null && <ErrorView error={list.error} retry={list.reload} />}
      <div className="table-wrap">
        <table className="table cards" data-testid="backups-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col" className="num">
                Size
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.loading && !list.data
              ? Array.from({ length: 3 }, (_, i) => (
                  <tr key={i} aria-hidden="true">
                    <td colSpan={4}>
                      <div className="skeleton sk-line" />
                    </td>
                  </tr>
                ))
              : backups.map((b) => (
                  <tr key={b.name} data-testid="backup-row" data-name={b.name}>
                    <td className="mono" data-label="Name">{b.name}</td>
                    <td data-label="Created">{formatDate(b.createdAt)}</td>
                    <td className="num" data-label="Size">{formatBytes(b.size)}</td>
                    <td className="row-actions">
                      <button type="button" className="secondary small-button" onClick={() => download(b)} disabled={downloading === b.name} aria-label={`Download ${b.name}`} data-testid="backup-download">
                        {downloading === b.name ? 'Downloading…' : 'Download'}
                      </button>
                      <button type="button" className="secondary small-button" onClick={() => setConfirm({ kind: 'restore', backup: b })} disabled={busy} aria-label={`Restore ${b.name}`} data-testid="backup-restore">
                        Restore
                      </button>
                      <button type="button" className="secondary small-button danger-text" onClick={() => setConfirm({ kind: 'delete', backup: b })} disabled={busy} aria-label={`Delete ${b.name}`} data-testid="backup-delete">
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
            {!list.loading && backups.length === 0 && !list.error && (
              <tr>
                <td colSpan={4} className="muted">
                  No backups yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={confirm != null}
        title={confirm?.kind === 'restore' ? 'Restore this backup?' : 'Delete this backup?'}
        confirmLabel={confirm?.kind === 'restore' ? 'Restore and replace everything' : 'Delete backup'}
        danger
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          const c = confirm;
          setConfirm(null);
          if (!c) return;
          if (c.kind === 'restore') void restore(c.backup);
          else void remove(c.backup);
        }}
      >
        {confirm?.kind === 'restore' ? (
          <p>
            Every recipe, cookbook, account and image is replaced by the contents of <strong className="mono">{confirm.backup.name}</strong>.
            Changes made since it was taken are lost. The service is unavailable while it runs.
          </p>
        ) : (
          <p>
            <strong className="mono">{confirm?.backup.name}</strong> is deleted from the server.
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
