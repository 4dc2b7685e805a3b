import { useId } from 'react';

/**
 * Chooses servings (when the recipe states them) or a plain multiplier (when it does not).
 * value is servings, or the factor when base is null.
 */
export function ServingsControl(props: { base: number | null; value: number; onChange: (v: number) => void }) {
  const id = useId();
  const byServings = props.base != null && props.base > 0;
  const step = byServings ? 1 : 0.5;
  const min = byServings ? 1 : 0.5;
  const set = (v: number) => {
    if (Number.isFinite(v) && v >= min && v <= 999) props.onChange(Math.round(v / step) * step);
  };
  return (
    <div className="servings" role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`} className="servings-label">
        {byServings ? 'Servings' : 'Scale ×'}
      </span>
      <button
        type="button"
        className="icon secondary"
        aria-label={byServings ? 'Fewer servings' : 'Scale down'}
        onClick={() => set(props.value - step)}
        disabled={props.value <= min}
        data-testid="servings-decrease"
      >
        −
      </button>
      <label htmlFor={id} className="visually-hidden">
        {byServings ? 'Servings' : 'Scale factor'}
      </label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={min}
        max={999}
        step={step}
        value={props.value}
        onChange={(e) => set(Number(e.target.value))}
        data-testid="servings-input"
      />
      <button
        type="button"
        className="icon secondary"
        aria-label={byServings ? 'More servings' : 'Scale up'}
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

/** Scale factor from the control's value. */
export function factorFor(base: number | null, value: number): number {
  if (base != null && base > 0) return value / base;
  return value > 0 ? value : 1;
}
