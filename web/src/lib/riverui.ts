import { api } from './api';

/**
 * Opens River UI (the job queues: lists, retries, cancels) for an
 * administrator: the server exchanges the access token for a cookie scoped
 * to /api/admin/river, then the browser goes there.
 */
export async function openRiverUI(go: (url: string) => void = (u) => window.location.assign(u)): Promise<void> {
  const { url } = await api.request<{ url: string }>('POST', '/api/admin/river/session', { withCookies: true });
  go(url);
}
