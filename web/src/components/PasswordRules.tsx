import { passwordChecks } from '../lib/password';

/** The password rule, ticked off live as the user types (announced politely). */
export function PasswordRules({ password, id }: { password: string; id?: string }) {
  const checks = passwordChecks(password);
  return (
    <ul className="password-rules" id={id} aria-live="polite" data-testid="password-rules">
      {checks.map((c) => (
        <li key={c.id} className={c.ok ? 'ok' : 'todo'} data-ok={c.ok}>
          <span aria-hidden="true">{c.ok ? '✓' : '○'}</span> {c.label}
          <span className="visually-hidden">{c.ok ? ' (met)' : ' (not met yet)'}</span>
        </li>
      ))}
    </ul>
  );
}
