import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from './api';
import { openRiverUI } from './riverui';

describe('openRiverUI', () => {
  afterEach(() => vi.restoreAllMocks());

  it('exchanges the session for the River UI cookie, then goes to the address the server gives', async () => {
    const request = vi.spyOn(api, 'request').mockResolvedValue({ url: '/api/admin/river/' });
    const go = vi.fn();
    await openRiverUI(go);
    expect(request).toHaveBeenCalledWith('POST', '/api/admin/river/session', { withCookies: true });
    expect(go).toHaveBeenCalledWith('/api/admin/river/');
  });

  it('goes nowhere when the server refuses (not an administrator)', async () => {
    vi.spyOn(api, 'request').mockRejectedValue(new Error('this needs an administrator'));
    const go = vi.fn();
    await expect(openRiverUI(go)).rejects.toThrow('administrator');
    expect(go).not.toHaveBeenCalled();
  });
});
