import { useCallback, useEffect, useMemo, useRef, useState, type TouchEvent as ReactTouchEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api, type Mapping, type Recipe } from '../lib/api';
import { useAuth } from '../lib/auth';
import { useAsync, useTitle } from '../lib/hooks';
import { recipeKey, takePrefetched } from '../lib/prefetch';
import { flattenSteps, ingredientsByStep, unitFor, useServings } from '../lib/recipe';
import { ServingsControl } from '../components/ServingsControl';
import { ErrorView, PageSkeleton } from '../components/ui';
import { StepText, TimerList, useTicks, useTimers } from '../components/CookTimers';

type WakeState = 'on' | 'off' | 'unsupported';

/**
 * Keeps the screen awake while mounted. The browser drops the lock when the tab is hidden,
 * so it is requested again each time the page becomes visible.
 */
function useWakeLock(): WakeState {
  const [state, setState] = useState<WakeState>(() => ('wakeLock' in navigator ? 'off' : 'unsupported'));
  useEffect(() => {
    if (!('wakeLock' in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    let live = true;
    const acquire = async () => {
      if (document.visibilityState !== 'visible' || (lock && !lock.released)) return;
      try {
        lock = await navigator.wakeLock.request('screen');
        if (!live) {
          void lock.release();
          return;
        }
        setState('on');
        lock.addEventListener('release', () => live && setState('off'));
      } catch {
        // Refused (battery saver, no user gesture yet, permissions policy).
        if (live) setState('off');
      }
    };
    const onVisible = () => void acquire();
    void acquire();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      live = false;
      document.removeEventListener('visibilitychange', onVisible);
      void lock?.release().catch(() => {});
    };
  }, []);
  return state;
}

export default function CookingMode() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const data = useAsync(
    async (s) => {
      const [recipe, mappings] = await Promise.all([
        takePrefetched<Recipe>(recipeKey(id)) ?? api.getRecipe(id, s),
        api.getMappings(id, s).catch((): Mapping[] => []),
      ]);
      return { recipe, mappings };
    },
    [id, user?.id],
  );
  useTitle(data.data ? `Cooking ${data.data.recipe.title}` : 'Cooking');
  if (data.loading && !data.data) return <PageSkeleton />;
  if (data.error || !data.data) return <ErrorView error={data.error} retry={data.reload} />;
  return <Cook recipe={data.data.recipe} mappings={data.data.mappings} />;
}

function Cook({ recipe, mappings }: { recipe: Recipe; mappings: Mapping[] }) {
  const steps = useMemo(() => flattenSteps(recipe), [recipe]);
  const byStep = useMemo(() => ingredientsByStep(mappings), [mappings]);
  const ingredients = useMemo(() => recipe.ingredientSections.flatMap((s) => s.ingredients), [recipe]);
  const [servings, setServings, scaled] = useServings(recipe);
  const [index, setIndex] = useState(0);
  const [overview, setOverview] = useState(false);
  const [showAll, setShowAll] = useState(false);
  const wake = useWakeLock();
  const timers = useTimers(recipe.id);
  const { ticks, toggle } = useTicks(recipe.id);
  const stepRef = useRef<HTMLDivElement>(null);

  const go = useCallback(
    (delta: number) => setIndex((i) => Math.max(0, Math.min(steps.length - 1, i + delta))),
    [steps.length],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === 'ArrowRight' || e.key === 'PageDown') {
        e.preventDefault();
        go(1);
      } else if (e.key === 'ArrowLeft' || e.key === 'PageUp') {
        e.preventDefault();
        go(-1);
      } else if (e.key === 'Home') {
        setIndex(0);
      } else if (e.key === 'End') {
        setIndex(steps.length - 1);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, steps.length]);

  // Swipe: a mostly horizontal move of 50px or more.
  const touch = useRef<{ x: number; y: number } | null>(null);
  const onTouchStart = (e: ReactTouchEvent) => {
    const t = e.touches[0];
    touch.current = { x: t.clientX, y: t.clientY };
  };
  const onTouchEnd = (e: ReactTouchEvent) => {
    const start = touch.current;
    touch.current = null;
    if (!start) return;
    const t = e.changedTouches[0];
    const dx = t.clientX - start.x;
    const dy = t.clientY - start.y;
    if (Math.abs(dx) >= 50 && Math.abs(dx) > Math.abs(dy) * 1.5) go(dx < 0 ? 1 : -1);
  };

  const step = steps[index];
  const mapped = step ? ingredients.filter((i) => byStep.get(step.id)?.has(i.id)) : [];
  const shownIngredients = showAll ? ingredients : mapped;

  return (
    <div className="cook" onTouchStart={onTouchStart} onTouchEnd={onTouchEnd} data-testid="cook-mode">
      <div className="cook-bar">
        <Link to={`/recipes/${recipe.id}${servings !== (recipe.servings ?? 1) ? `?servings=${servings}` : ''}`} className="button secondary">
          ← Recipe
        </Link>
        <h1 className="cook-title">{recipe.title}</h1>
        <ServingsControl base={recipe.servings} unit={unitFor(recipe, servings)} value={servings} onChange={setServings} />
        <span className={`wake wake-${wake}`} data-testid="wake-lock-status" data-state={wake}>
          {wake === 'on' ? 'Screen stays on' : wake === 'off' ? 'Screen may sleep' : 'Screen lock not supported'}
        </span>
      </div>

      <TimerList timers={timers.timers} now={timers.now} onDismiss={timers.dismiss} />
      {steps.length === 0 ? (
        <div className="empty">
          <p>This recipe has no steps.</p>
        </div>
      ) : overview ? (
        <section className="cook-overview" aria-labelledby="overview-h">
          <h2 id="overview-h">All steps</h2>
          <ol>
            {steps.map((s, i) => (
              <li key={s.id} className={i === index ? 'current' : ''}>
                <button
                  type="button"
                  className="overview-step"
                  onClick={() => {
                    setIndex(i);
                    setOverview(false);
                  }}
                  aria-current={i === index ? 'step' : undefined}
                  data-testid="cook-overview-step"
                >
                  {ticks.has(`s:${s.id}`) && <span aria-label="done">✓ </span>}
                  {s.section && <span className="muted small">{s.section} · </span>}
                  {s.text}
                </button>
              </li>
            ))}
          </ol>
        </section>
      ) : (
        <div className="cook-main">
          <div className="cook-step" ref={stepRef} aria-live="polite" aria-atomic="true">
            <p className="cook-counter" data-testid="cook-step-counter">
              Step {index + 1} of {steps.length}
              {step.section && <span className="muted"> · {step.section}</span>}
            </p>
            <p className="cook-text" data-testid="cook-step-text">
              <StepText text={step.text} label={`Step ${index + 1}`} onStart={timers.start} />
            </p>
            <label className="check cook-step-done">
              <input type="checkbox" checked={ticks.has(`s:${step.id}`)} onChange={() => toggle(`s:${step.id}`)} data-testid="cook-step-done" />
              Step done
            </label>
          </div>
          <aside className="cook-ingredients" aria-labelledby="cook-ing-h">
            <div className="section-head">
              <h2 id="cook-ing-h">{showAll ? 'All ingredients' : 'For this step'}</h2>
              <button type="button" className="link" onClick={() => setShowAll((v) => !v)} aria-pressed={showAll} data-testid="cook-show-all">
                {showAll ? 'Only this step' : 'Show all'}
              </button>
            </div>
            {shownIngredients.length > 0 ? (
              <ul>
                {shownIngredients.map((i) => (
                  <li key={i.id} data-testid="cook-ingredient" className={showAll && mapped.includes(i) ? 'hl' : ''}>
                    <label className={`check${ticks.has(`i:${i.id}`) ? ' ticked' : ''}`}>
                      <input type="checkbox" checked={ticks.has(`i:${i.id}`)} onChange={() => toggle(`i:${i.id}`)} data-testid="cook-ingredient-tick" />
                      {scaled(i)}
                    </label>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No ingredients are linked to this step.</p>
            )}
          </aside>
        </div>
      )}

      {steps.length > 0 && (
        <nav className="cook-nav" aria-label="Steps">
          <button type="button" className="secondary big" onClick={() => go(-1)} disabled={index === 0 || overview} data-testid="cook-prev">
            ← Previous
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => setOverview((v) => !v)}
            aria-pressed={overview}
            data-testid="cook-overview-toggle"
          >
            {overview ? 'Back to step' : 'All steps'}
          </button>
          <button
            type="button"
            className="big"
            onClick={() => go(1)}
            disabled={index === steps.length - 1 || overview}
            data-testid="cook-next"
          >
            Next →
          </button>
        </nav>
      )}
    </div>
  );
}
