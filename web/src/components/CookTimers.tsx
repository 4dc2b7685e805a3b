import { useEffect, useRef, useState, type ReactNode } from 'react';
import { findDurations, formatClock } from '../lib/durations';
import { TimerIcon } from './icons';
import { isDone, loadTimers, remaining, saveTimers, startTimer, type Timer } from '../lib/timers';

/** Running timers of a recipe, with the clock they are shown against (see lib/timers.ts). */
export function useTimers(recipeId: string) {
  const [timers, setTimers] = useState<Timer[]>(() => loadTimers(recipeId));
  const [now, setNow] = useState(() => Date.now());
  const rung = useRef(new Set<string>());
  useEffect(() => saveTimers(recipeId, timers), [recipeId, timers]);
  useEffect(() => {
    if (timers.length === 0) return;
    const tick = () => setNow(Date.now());
    const id = setInterval(tick, 1000);
    // Back from a locked screen: show the right time at once, and ring what ended meanwhile.
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(id);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [timers.length]);
  useEffect(() => {
    const due = timers.filter((t) => isDone(t, now) && !rung.current.has(t.id));
    if (due.length === 0) return;
    for (const t of due) rung.current.add(t.id);
    ring();
  }, [timers, now]);
  return {
    timers,
    now,
    start: (label: string, seconds: number) => {
      const n = Date.now();
      setNow(n);
      setTimers((ts) => [...ts, startTimer(label, seconds, n)]);
    },
    dismiss: (id: string) => setTimers((ts) => ts.filter((t) => t.id !== id)),
  };
}

/** A beep (Web Audio) and a vibration; the visible alert is the timer list's. */
function ring() {
  try {
    navigator.vibrate?.([300, 150, 300, 150, 300]);
  } catch {
    // no vibration
  }
  try {
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    const ctx = new Ctx();
    for (let i = 0; i < 3; i++) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = 880;
      gain.gain.value = 0.2;
      osc.connect(gain).connect(ctx.destination);
      const at = ctx.currentTime + i * 0.45;
      osc.start(at);
      osc.stop(at + 0.3);
    }
    setTimeout(() => void ctx.close(), 2000);
  } catch {
    // no sound output
  }
}

/** A step's text with each duration in it as a button that starts a timer. */
export function StepText({ text, label, onStart }: { text: string; label: string; onStart: (label: string, seconds: number) => void }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const d of findDurations(text)) {
    parts.push(text.slice(at, d.start));
    parts.push(
      <button
        key={d.start}
        type="button"
        className="timer-chip"
        onClick={() => onStart(`${label}: ${d.text}`, d.seconds)}
        aria-label={`Start a ${formatClock(d.seconds)} timer (${d.text})`}
        data-testid="cook-timer-start"
      >
        <TimerIcon />
        {d.text}
      </button>,
    );
    at = d.end;
  }
  parts.push(text.slice(at));
  return <>{parts}</>;
}

/** The running timers: time left, and when one is done, an alert until dismissed. */
export function TimerList({ timers, now, onDismiss }: { timers: Timer[]; now: number; onDismiss: (id: string) => void }) {
  if (timers.length === 0) return null;
  return (
    <section className="timers" aria-label="Timers">
      <ul>
        {timers.map((t) => {
          const done = isDone(t, now);
          return (
            <li key={t.id} className={done ? 'timer done' : 'timer'} data-testid="cook-timer" data-done={done}>
              <span className="timer-label">{t.label}</span>
              {done ? (
                <strong role="alert">Done!</strong>
              ) : (
                <span className="timer-clock" role="timer" aria-live="off">
                  {formatClock(remaining(t, now))}
                </span>
              )}
              <button type="button" className="secondary small-button" onClick={() => onDismiss(t.id)} data-testid="cook-timer-dismiss">
                {done ? 'Dismiss' : 'Cancel'}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Ticks of ingredients and steps, kept for the session per recipe. */
export function useTicks(recipeId: string) {
  const key = `larder.ticks.${recipeId}`;
  const [ticks, setTicks] = useState<Set<string>>(() => {
    try {
      return new Set(JSON.parse(sessionStorage.getItem(key) ?? '[]') as string[]);
    } catch {
      return new Set();
    }
  });
  useEffect(() => {
    try {
      sessionStorage.setItem(key, JSON.stringify([...ticks]));
    } catch {
      // storage off: ticks last as long as the page
    }
  }, [key, ticks]);
  const toggle = (id: string) =>
    setTicks((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return { ticks, toggle };
}
