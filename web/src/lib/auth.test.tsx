// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, type Rendered, act } from '../test/render';
import { api } from './api';
import { AuthProvider, useAuth } from './auth';
import { mayHaveSession } from './sessionHint';

function Who() {
  const { user } = useAuth();
  return <output data-testid="who">{user === undefined ? 'loading' : (user?.email ?? 'nobody')}</output>;
}

let r: Rendered | null = null;
const fetchMock = vi.fn();
beforeEach(() => {
  localStorage.clear();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  r?.unmount();
  r = null;
  vi.unstubAllGlobals();
});

// Lets the mocked fetches and the answers' JSON settle (each a few turns of the event loop, no
// timers involved), then act renders what they changed.
const flush = () => act(async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
});

describe('session at start', () => {
  it('does not call refresh (a 401 in the console) for a browser that never signed in', async () => {
    r = render(<AuthProvider><Who /></AuthProvider>);
    await flush();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(r.container.textContent).toBe('nobody');
  });

  it('refreshes when a session may exist, and forgets it when the server says it is over', async () => {
    localStorage.setItem('larder.session', '1');
    fetchMock.mockImplementation(async (url: string) =>
      String(url).includes('/api/health')
        ? Response.json({ status: 'ok' })
        : new Response('{"error":{"code":"unauthenticated","message":"No session."}}', { status: 401 }),
    );
    r = render(<AuthProvider><Who /></AuthProvider>);
    await flush();
    expect(String(fetchMock.mock.calls[0][0])).toContain('/api/auth/refresh');
    expect(r.container.textContent).toBe('nobody');
    expect(mayHaveSession()).toBe(false);
  });

  it('keeps the hint when the server cannot be reached (offline)', async () => {
    localStorage.setItem('larder.session', '1');
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    r = render(<AuthProvider><Who /></AuthProvider>);
    await flush();
    expect(r.container.textContent).toBe('nobody');
    expect(mayHaveSession()).toBe(true);
  });

  it('remembers a session that starts', async () => {
    localStorage.setItem('larder.session', '1');
    const user = { id: 'u1', email: 'a@b.c', name: 'A', role: 'USER', emailVerified: true };
    fetchMock.mockImplementation(async (url: string) =>
      String(url).includes('/logout') ? new Response(null, { status: 204 }) : Response.json({ accessToken: 't', user }),
    );
    r = render(<AuthProvider><Who /></AuthProvider>);
    await flush();
    expect(r.container.textContent).toBe('a@b.c');
    expect(mayHaveSession()).toBe(true);
    await act(() => api.logout());
    expect(mayHaveSession()).toBe(false);
  });
});
