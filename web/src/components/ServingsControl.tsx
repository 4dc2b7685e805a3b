import { useEffect, useId, useState } from 'react';
import { capitalized } from '../lib/format';

/**
 * Chooses servings (when the recipe states them) or a plain multiplier (when it does not).
 * value is servings, or the factor when base is null. unit is what the servings count, written for
 * value ("cookies", "loaf": unitFor), '' or absent for people; the control is labelled by it.
 *
 * A stepper (− and +) plus a box that takes free typing: the box keeps its own text while it is
 * being edited, so it can be emptied and retyped ("4" → "" → "3"), and only a valid number is
 * passed on. Leaving the box with something invalid or empty puts the current value back.
 */
export function ServingsControl(props: { base: number | null; unit?: string; value: number; onChange: (v: number) => void }) {
  const id = useId();
  const byServings = props.base != null && props.base > 0;
  const noun = props.unit || 'servings';
  const step = byServings ? 1 : 0.5;
  const min = byServings ? 1 : 0.5;
  const valid = (v: number) => Number.isFinite(v) && v >= min && v <= 999;
  const set = (v: number) => {
    if (valid(v)) props.onChange(Math.round(v / step) * step);
  };
  const [draft, setDraft] = useState(String(props.value));
  const [editing, setEditing] = useState(false);
  // The buttons and the reset link change value from outside the box: show it.
  useEffect(() => {
    if (!editing || parseAmount(draft) !== props.value) setDraft(String(props.value));
  }, [props.value]);
  const typed = (text: string) => {
    setDraft(text);
    const v = parseAmount(text);
    if (valid(v) && Math.round(v / step) * step === v) props.onChange(v);
  };
  return (
    <div className="servings" role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`} className="servings-label">
        {byServings ? capitalized(noun) : 'Scale ×'}
      </span>
      <button
        type="button"
        className="icon secondary"
        aria-label={byServings ? `Fewer ${noun}` : 'Scale down'}
        onClick={() => set(props.value - step)}
        disabled={props.value <= min}
        data-testid="servings-decrease"
      >
        −
      </button>
      <label htmlFor={id} className="visually-hidden">
        {byServings ? capitalized(noun) : 'Scale factor'}
      </label>
      <input
        id={id}
        type="text"
        inputMode={byServings ? 'numeric' : 'decimal'}
        autoComplete="off"
        size={3}
        value={draft}
        onFocus={() => setEditing(true)}
        onBlur={() => {
          setEditing(false);
          setDraft(String(props.value));
        }}
        onChange={(e) => typed(e.target.value)}
        data-testid="servings-input"
      />
      <button
        type="button"
        className="icon secondary"
        aria-label={byServings ? `More ${noun}` : 'Scale up'}
        onClick={() => set(props.value + step)}
        data-testid="servings-increase"
      >
        +
      </button>
      {byServings && props.value !== props.base && (
        <button type="button" className="link" onClick={() => props.onChange(props.base!)}>
          Reset to {props.base}
        </button>
      )}
    </div>
  );
}

/** A typed amount: digits with a decimal point or comma; NaN for anything else, empty included. */
export function parseAmount(text: string): number {
  const t = text.trim().replace(',', '.');
  return /^\d+(\.\d+)?$|^\.\d+$/.test(t) ? Number(t) : NaN;
}

