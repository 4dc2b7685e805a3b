import { useRef, useState } from 'react';
import { errorMessage } from '../lib/api';
import { sentence } from '../lib/format';
import { RecipeImage } from './RecipeImage';
import { ConfirmDialog, ProgressBar } from './ui';

const MAX_BYTES = 20 * 1024 * 1024;
const TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/**
 * Shows an image with upload (progress bar) and removal. The API checks the content; the
 * checks here only save a pointless upload of something clearly wrong.
 */
export function ImageField(props: {
  imageUrl: string | null;
  label: string;
  upload: (file: File, onProgress: (p: number) => void) => Promise<void>;
  remove?: () => Promise<void>;
  testId?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (file.type && !TYPES.includes(file.type)) {
      setError('Choose a JPEG, PNG, GIF or WEBP image.');
      return;
    }
    if (file.size > MAX_BYTES) {
      setError('That image is over 20 MB.');
      return;
    }
    setProgress(0);
    try {
      await props.upload(file, setProgress);
    } catch (e) {
      setError(sentence(errorMessage(e)));
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };
  const id = props.testId ?? 'image';
  return (
    <div className="image-field" data-testid={props.testId}>
      <RecipeImage src={props.imageUrl} alt={props.label} className="image-field-preview" />
      <div className="image-field-controls">
        <label className="button secondary file-button">
          {props.imageUrl ? 'Replace image' : 'Upload image'}
          <input
            ref={input}
            type="file"
            accept={TYPES.join(',')}
            className="visually-hidden"
            onChange={(e) => onFile(e.target.files?.[0])}
            disabled={progress != null}
            data-testid={`${id}-file`}
          />
        </label>
        {props.imageUrl && props.remove && (
          <button type="button" className="secondary danger-text" onClick={() => setConfirm(true)} data-testid={`${id}-remove`}>
            Remove image
          </button>
        )}
      </div>
      {progress != null && <ProgressBar value={progress} label="Uploading image" testId={`${id}-progress`} />}
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
      <ConfirmDialog
        open={confirm}
        title="Remove the image?"
        confirmLabel="Remove"
        danger
        busy={busy}
        onCancel={() => setConfirm(false)}
        onConfirm={async () => {
          setBusy(true);
          try {
            await props.remove?.();
            setConfirm(false);
          } catch (e) {
            setError(sentence(errorMessage(e)));
            setConfirm(false);
          } finally {
            setBusy(false);
          }
        }}
      >
        <p>The stored file is deleted.</p>
      </ConfirmDialog>
    </div>
  );
}
