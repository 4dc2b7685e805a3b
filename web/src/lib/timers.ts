/**
 * Cooking timers. A timer is its end time, not a countdown: what is left is computed from the
 * clock each time it is shown, so a timer is right after the screen was locked, the tab slept or
 * the page reloaded (timers are kept in sessionStorage per recipe).
 */
export interface Timer {
  id: string;
  label: string;
  seconds: number;
  /** Milliseconds since the epoch when it rings. */
  endsAt: number;
}

export function startTimer(label: string, seconds: number, now: number): Timer {
  return { id: `${now}-${Math.random().toString(36).slice(2, 8)}`, label, seconds, endsAt: now + seconds * 1000 };
}

/** Seconds left (0 when done). */
export function remaining(t: Timer, now: number): number {
  return Math.max(0, (t.endsAt - now) / 1000);
}

export function isDone(t: Timer, now: number): boolean {
  return now >= t.endsAt;
}

const key = (recipeId: string) => `larder.timers.${recipeId}`;

export function loadTimers(recipeId: string): Timer[] {
  try {
    const v = JSON.parse(sessionStorage.getItem(key(recipeId)) ?? '[]');
    return Array.isArray(v) ? v.filter((t) => t && typeof t.endsAt === 'number' && typeof t.label === 'string') : [];
  } catch {
    return [];
  }
}

export function saveTimers(recipeId: string, timers: Timer[]) {
  try {
    if (timers.length === 0) sessionStorage.removeItem(key(recipeId));
    else sessionStorage.setItem(key(recipeId), JSON.stringify(timers));
  } catch {
    // storage full or off: timers still run for this page
  }
}
