/** The local-account password rule (specification: 8+ characters, upper, lower, number). */
export interface PasswordCheck {
  id: 'length' | 'upper' | 'lower' | 'number' | 'max';
  label: string;
  ok: boolean;
}

const encoder = new TextEncoder();

/** Each part of the rule with whether pw meets it, in the order shown to the user. */
export function passwordChecks(pw: string): PasswordCheck[] {
  const checks: PasswordCheck[] = [
    { id: 'length', label: 'At least 8 characters', ok: [...pw].length >= 8 },
    { id: 'upper', label: 'An uppercase letter', ok: /\p{Lu}/u.test(pw) },
    { id: 'lower', label: 'A lowercase letter', ok: /\p{Ll}/u.test(pw) },
    { id: 'number', label: 'A number', ok: /\p{Nd}/u.test(pw) },
  ];
  // bcrypt reads only 72 bytes; the API refuses longer passwords rather than truncating.
  if (encoder.encode(pw).length > 72) checks.push({ id: 'max', label: 'At most 72 bytes', ok: false });
  return checks;
}

export function passwordOk(pw: string): boolean {
  return passwordChecks(pw).every((c) => c.ok);
}
