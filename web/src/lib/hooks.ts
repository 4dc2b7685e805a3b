import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';

/** value, delayed until it has not changed for ms. */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export interface AsyncState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
  setData: (d: T | ((prev: T | undefined) => T)) => void;
}

/**
 * Runs fn when deps change (aborting the previous run) and tracks its result. initial, when given,
 * is the result for the first deps, already at hand: fn is not run for them.
 */
export function useAsync<T>(fn: (signal: AbortSignal) => Promise<T>, deps: DependencyList, initial?: T): AsyncState<T> {
  const [data, setData] = useState<T | undefined>(initial);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(initial === undefined);
  const [tick, setTick] = useState(0);
  const fnRef = useRef(fn);
  fnRef.current = fn;
  const runDeps = [...deps, tick];
  const firstDeps = useRef<DependencyList | null>(initial === undefined ? null : runDeps);
  useEffect(() => {
    const first = firstDeps.current;
    firstDeps.current = null;
    if (first && first.every((d, i) => Object.is(d, runDeps[i]))) return;
    const ctrl = new AbortController();
    setLoading(true);
    setError(undefined);
    fnRef.current(ctrl.signal).then(
      (d) => {
        if (ctrl.signal.aborted) return;
        setData(d);
        setLoading(false);
      },
      (e) => {
        if (ctrl.signal.aborted) return;
        setError(e);
        setLoading(false);
      },
    );
    return () => ctrl.abort(new DOMException('superseded', 'AbortError'));
  }, runDeps);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload, setData: setData as AsyncState<T>['setData'] };
}

/** Sets the document title while mounted. */
export function useTitle(title: string | undefined) {
  useEffect(() => {
    if (title) document.title = `${title} · Larder`;
  }, [title]);
}

/** Calls onVisible whenever the element scrolls into view (infinite scroll sentinel). */
export function useInView<T extends Element>(onVisible: () => void, enabled: boolean) {
  const ref = useRef<T | null>(null);
  const cb = useRef(onVisible);
  cb.current = onVisible;
  useEffect(() => {
    const el = ref.current;
    if (!el || !enabled || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) cb.current();
      },
      { rootMargin: '600px 0px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [enabled]);
  return ref;
}
