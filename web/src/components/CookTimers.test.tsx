// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allByTestId, click, render, type Rendered } from '../test/render';
import { startTimer } from '../lib/timers';
import { StepText, TimerList } from './CookTimers';

let r: Rendered | null = null;
afterEach(() => {
  r?.unmount();
  r = null;
});

describe('cooking timers', () => {
  it('turn the durations of a step into buttons, the text reading as written', () => {
    const start = vi.fn();
    r = render(
      <p>
        <StepText text="Simmer for 20 minutes, then rest 10–15 min." label="Step 2" onStart={start} />
      </p>,
    );
    expect(r.container.textContent).toBe('Simmer for 20 minutes, then rest 10–15 min.');
    const buttons = allByTestId(r.container, 'cook-timer-start');
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual(['Start a 20:00 timer (20 minutes)', 'Start a 10:00 timer (10–15 min)']);
    click(buttons[1]);
    expect(start).toHaveBeenCalledWith('Step 2: 10–15 min', 600);
  });

  it('show the time left, and an alert once one is done', () => {
    const t0 = 1_000_000;
    const timers = [startTimer('Step 1: 20 minutes', 1200, t0), startTimer('Step 2: 1 min', 60, t0)];
    const dismiss = vi.fn();
    r = render(<TimerList timers={timers} now={t0 + 61_000} onDismiss={dismiss} />);
    const rows = allByTestId(r.container, 'cook-timer');
    expect(rows.map((e) => e.dataset.done)).toEqual(['false', 'true']);
    expect(rows[0].querySelector('[role=timer]')!.textContent).toBe('18:59');
    expect(rows[1].querySelector('[role=alert]')!.textContent).toBe('Done!');
    click(rows[1].querySelector('[data-testid=cook-timer-dismiss]')!);
    expect(dismiss).toHaveBeenCalledWith(timers[1].id);
  });
});
