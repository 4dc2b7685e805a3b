import { useEffect, useRef, type ReactNode } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from './ui';

/**
 * Warns before work is lost: while `dirty`, leaving for another page of the app asks first (a
 * dialog), and closing or reloading the tab asks through the browser's own prompt. A form that has
 * saved calls `release()` before it navigates away (its state has not re-rendered yet).
 */
export function useUnsavedChanges(dirty: boolean): { dialog: ReactNode; release: () => void } {
  const released = useRef(false);
  const guard = useRef(dirty);
  guard.current = dirty;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => guard.current && !released.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    released.current = false;
    const warn = (e: BeforeUnloadEvent) => {
      if (released.current) return;
      e.preventDefault();
      e.returnValue = ''; // older browsers need a value to prompt
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  const dialog = (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      title="Leave without saving?"
      confirmLabel="Leave"
      danger
      onCancel={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    >
      <p>Your changes on this page are not saved yet.</p>
    </ConfirmDialog>
  );
  return { dialog, release: () => (released.current = true) };
}
