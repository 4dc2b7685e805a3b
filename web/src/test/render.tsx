// A tiny render helper on react-dom/client + act (no testing-library dependency). The client
// renders with Preact (vite.config.ts), so act is Preact's: it runs the callback, then flushes the
// renders and effects it caused before returning.
import type { ReactElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { act } from 'preact/test-utils';

export { act };

export interface Rendered {
  container: HTMLElement;
  root: Root;
  unmount: () => void;
}

export function render(ui: ReactElement): Rendered {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  act(() => root.render(ui));
  return {
    container,
    root,
    unmount: () => {
      act(() => root.unmount());
      container.remove();
    },
  };
}

/** Sets an input's value the way React notices (through the native setter) and fires input. */
export function type(el: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')!.set!;
  act(() => {
    setter.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export function click(el: Element) {
  act(() => {
    el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  });
}

export function key(el: Element, k: string) {
  act(() => {
    el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
  });
}

export const byTestId = (root: ParentNode, id: string) => root.querySelector(`[data-testid="${id}"]`) as HTMLElement;
export const allByTestId = (root: ParentNode, id: string) => [...root.querySelectorAll(`[data-testid="${id}"]`)] as HTMLElement[];
