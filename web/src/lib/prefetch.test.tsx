// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, type Rendered, act } from '../test/render';
import { useAsync } from './hooks';
import { rememberSession } from './sessionHint';

let r: Rendered | null = null;
beforeEach(() => {
  localStorage.clear();
  vi.resetModules(); // prefetch.ts parses the page's recipe block once per page load
  document.head.innerHTML = '';
});
afterEach(() => {
  r?.unmount();
  r = null;
});

function writeBlock(id: string, recipe: object) {
  const el = document.createElement('script');
  el.type = 'application/json';
  el.id = 'recipe-data';
  el.dataset.id = id;
  el.textContent = JSON.stringify(recipe);
  document.head.append(el);
}

describe('the recipe the server wrote into the page', () => {
  it('is the page recipe for a visitor, taken once, and the block leaves the page', async () => {
    writeBlock('r1', { id: 'r1', title: 'Soup' });
    const { writtenRecipe } = await import('./prefetch');
    expect(writtenRecipe('r2')).toBeUndefined(); // another recipe's page
    expect(writtenRecipe('r1')?.title).toBe('Soup');
    expect(document.getElementById('recipe-data')).toBeNull();
    expect(writtenRecipe('r1', { take: true })?.title).toBe('Soup');
    expect(writtenRecipe('r1')).toBeUndefined(); // a later visit reads the API
  });

  it('is not used when this browser may hold a session (a cook sees the recipe through the API)', async () => {
    rememberSession(true);
    writeBlock('r1', { id: 'r1', title: 'Soup' });
    const { writtenRecipe } = await import('./prefetch');
    expect(writtenRecipe('r1')).toBeUndefined();
  });

  it('is ignored when it cannot be read', async () => {
    writeBlock('r1', {});
    document.getElementById('recipe-data')!.textContent = '{not json';
    const { writtenRecipe } = await import('./prefetch');
    expect(writtenRecipe('r1')).toBeUndefined();
  });
});

describe('useAsync with a result at hand', () => {
  it('renders it at once and reads only when the inputs change', async () => {
    const load = vi.fn(async (n: number) => `read ${n}`);
    let setN: (n: number) => void = () => {};
    function Probe() {
      const [n, set] = useState(1);
      setN = set;
      const { data, loading } = useAsync(() => load(n), [n], n === 1 ? 'at hand' : undefined);
      return <output>{loading ? 'loading' : data}</output>;
    }
    r = render(<Probe />);
    expect(r.container.textContent).toBe('at hand');
    expect(load).not.toHaveBeenCalled();
    await act(async () => setN(2));
    await act(async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
    });
    expect(load).toHaveBeenCalledWith(2);
    expect(r.container.textContent).toBe('read 2');
  });
});
