import { describe, expect, it, vi } from 'vitest';
import { ApiClient, ApiError, backupDate, buildQuery, errorMessage, normalizePage, type Job, type User } from './api';

const user: User = {
  id: 'u1',
  email: 'cook@example.com',
  name: 'Cook',
  role: 'USER',
  emailVerified: true,
  provider: 'local',
  createdAt: '2025-10-01T00:00:00Z',
};

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  credentials?: RequestCredentials;
}

type Handler = (call: Call) => Response | Promise<Response>;

function json(status: number, body?: unknown, headers: Record<string, string> = {}) {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

const errorBody = (code: string, message: string, fields?: Record<string, string>) => ({
  error: { code, message, ...(fields ? { fields } : {}) },
});

/** A fetch double that records calls and answers with handler. */
function setup(handler: Handler) {
  const calls: Call[] = [];
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call: Call = {
      url: String(input),
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      credentials: init.credentials,
    };
    calls.push(call);
    return handler(call);
  }) as unknown as typeof fetch;
  const sleeps: number[] = [];
  const client = new ApiClient({
    fetch: fetchImpl,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  return { client, calls, sleeps };
}

/** Signs the client in through a mocked login. */
async function signIn(client: ApiClient, calls: Call[], token = 'A1') {
  void calls;
  const orig = (client as unknown as { fetchImpl: typeof fetch }).fetchImpl;
  (client as unknown as { fetchImpl: typeof fetch }).fetchImpl = async () =>
    json(200, { accessToken: token, refreshToken: 'R', user });
  await client.login(user.email, 'Passw0rd!');
  (client as unknown as { fetchImpl: typeof fetch }).fetchImpl = orig;
}

describe('requests', () => {
  it('sends the bearer token, JSON body and query, and parses JSON', async () => {
    const { client, calls } = setup(() => json(200, { items: [], nextCursor: null, total: 0 }));
    await signIn(client, calls);
    const page = await client.listRecipes({ q: 'soup', tag: '', category: undefined, limit: 24, cursor: null });
    expect(page.total).toBe(0);
    expect(calls[0].url).toBe('/api/recipes?q=soup&limit=24');
    expect(calls[0].headers.Authorization).toBe('Bearer A1');
    expect(calls[0].headers.Accept).toBe('application/json');
  });

  it('sends JSON bodies with a content type', async () => {
    const { client, calls } = setup(() => json(201, { id: 'r1' }));
    await client.createRecipe({
      title: 'Soup',
      description: '',
      servings: 4,
      servingsUnit: '',
      prepMinutes: null,
      cookMinutes: null,
      totalMinutes: null,
      sourceUrl: '',
      visibility: 'PRIVATE',
      categories: [],
      tags: [],
      ingredientSections: [{ name: '', ingredients: [{ id: 'i1', text: '1 onion' }, { text: 'salt' }] }],
      instructionSections: [],
    });
    expect(calls[0].method).toBe('POST');
    expect(calls[0].headers['Content-Type']).toBe('application/json');
    expect((calls[0].body as { ingredientSections: unknown[] }).ingredientSections).toEqual([
      { name: '', ingredients: [{ id: 'i1', text: '1 onion' }, { text: 'salt' }] },
    ]);
  });

  it('returns undefined for 204', async () => {
    const { client } = setup(() => new Response(null, { status: 204 }));
    await expect(client.deleteRecipe('r1')).resolves.toBeUndefined();
  });

  it('encodes path segments', async () => {
    const { client, calls } = setup(() => json(200, { id: 'x' }));
    await client.getRecipe('a/b?c');
    expect(calls[0].url).toBe('/api/recipes/a%2Fb%3Fc');
  });

  it('posts {url, html} when the page was pasted, {url} otherwise', async () => {
    const job = { id: 'j1', state: 'queued' };
    const { client, calls } = setup(() => json(202, { job }));
    await expect(client.importRecipe('https://e.x/r')).resolves.toEqual(job);
    await client.importRecipe('https://e.x/r', '<html></html>');
    expect(calls[0].body).toEqual({ url: 'https://e.x/r' });
    expect(calls[1].body).toEqual({ url: 'https://e.x/r', html: '<html></html>' });
  });
});

describe('ApiError', () => {
  it('carries status, code, message and fields from the error body', async () => {
    const { client } = setup(() =>
      json(400, errorBody('validation_failed', 'Check the form.', { password: 'needs an uppercase letter' })),
    );
    const err = await client.register({ email: 'a@b.c', password: 'x' }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Check the form.',
      fields: { password: 'needs an uppercase letter' },
    });
  });

  it('reads Retry-After on 429', async () => {
    const { client } = setup(() => json(429, errorBody('rate_limited', 'Too many attempts.'), { 'Retry-After': '900' }));
    const err = await client.login('a@b.c', 'x').catch((e) => e);
    expect(err).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 900 });
  });

  it('falls back to a readable message when the body is not the error shape', async () => {
    const { client } = setup(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    const err = await client.getRecipe('r1').catch((e) => e);
    expect(err).toMatchObject({ status: 502, code: 'internal', message: 'Something went wrong on the server.' });
    const e2 = ApiError.fromResponse(429, null, '120');
    expect(e2.message).toBe('Too many attempts. Try again in 2 minutes.');
    expect(ApiError.fromResponse(413, {}).code).toBe('payload_too_large');
  });

  it('turns a network failure into status 0 network_error', async () => {
    const { client } = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    const err = await client.getRecipe('r1').catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 0, code: 'network_error' });
  });

  it('lets an abort through untouched', async () => {
    const { client } = setup(() => {
      throw new DOMException('aborted', 'AbortError');
    });
    const err = await client.getRecipe('r1').catch((e) => e);
    expect(err).not.toBeInstanceOf(ApiError);
    expect((err as DOMException).name).toBe('AbortError');
  });

  it('errorMessage reads any thrown value', () => {
    expect(errorMessage(new ApiError(404, 'not_found', 'recipe not found'))).toBe('recipe not found');
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage('?')).toBe('Something went wrong.');
  });
});

describe('session and refresh', () => {
  it('login stores the token in memory and notifies listeners; cookies are sent', async () => {
    const { client, calls } = setup(() => json(200, { accessToken: 'T', refreshToken: 'R', user }));
    const seen: Array<User | null> = [];
    client.onSession((u) => seen.push(u));
    await client.login(user.email, 'Passw0rd!');
    expect(client.accessToken).toBe('T');
    expect(client.user).toEqual(user);
    expect(seen).toEqual([user]);
    expect(calls[0].credentials).toBe('include');
    expect(calls[0].body).toEqual({ email: user.email, password: 'Passw0rd!' });
  });

  it('on 401 refreshes once with the cookie and retries with the new token', async () => {
    let token = 'A1';
    const { client, calls } = setup((c) => {
      if (c.url === '/api/auth/refresh') {
        token = 'A2';
        return json(200, { accessToken: 'A2', refreshToken: 'R2', user });
      }
      return c.headers.Authorization === `Bearer ${token}` && token === 'A2'
        ? json(200, { id: 'r1' })
        : json(401, errorBody('unauthenticated', 'token expired'));
    });
    await signIn(client, calls, 'A1');
    await expect(client.getRecipe('r1')).resolves.toEqual({ id: 'r1' });
    expect(calls.map((c) => c.url)).toEqual(['/api/recipes/r1', '/api/auth/refresh', '/api/recipes/r1']);
    const refresh = calls[1];
    expect(refresh.method).toBe('POST');
    expect(refresh.credentials).toBe('include');
    expect(calls[2].headers.Authorization).toBe('Bearer A2');
    expect(client.accessToken).toBe('A2');
  });

  it('concurrent 401s share one refresh', async () => {
    let refreshes = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const { client, calls } = setup(async (c) => {
      if (c.url === '/api/auth/refresh') {
        refreshes++;
        await gate;
        return json(200, { accessToken: 'A2', user });
      }
      return c.headers.Authorization === 'Bearer A2' ? json(200, { ok: c.url }) : json(401, errorBody('unauthenticated', 'x'));
    });
    await signIn(client, calls, 'A1');
    const all = Promise.all([client.getRecipe('1'), client.getRecipe('2'), client.getCookbook('3')]);
    await new Promise((r) => setTimeout(r, 0));
    release();
    const results = await all;
    expect(refreshes).toBe(1);
    expect(results).toEqual([{ ok: '/api/recipes/1' }, { ok: '/api/recipes/2' }, { ok: '/api/cookbooks/3' }]);
  });

  it('a request started during a refresh waits for it and uses the new token', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const { client, calls } = setup(async (c) => {
      if (c.url === '/api/auth/refresh') {
        await gate;
        return json(200, { accessToken: 'NEW', user });
      }
      return json(200, { auth: c.headers.Authorization ?? null });
    });
    const restoring = client.restoreSession();
    const req = client.get<{ auth: string }>('/api/tags');
    release();
    await restoring;
    await expect(req).resolves.toEqual({ auth: 'Bearer NEW' });
    expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(1);
  });

  it('when refresh fails the session ends and the original 401 is thrown', async () => {
    const { client, calls } = setup((c) =>
      c.url === '/api/auth/refresh'
        ? json(401, errorBody('unauthenticated', 'refresh token revoked'))
        : json(401, errorBody('unauthenticated', 'token expired')),
    );
    await signIn(client, calls);
    const seen: Array<User | null> = [];
    client.onSession((u) => seen.push(u));
    const err = await client.getRecipe('r1').catch((e) => e);
    expect(err).toMatchObject({ status: 401, message: 'token expired' });
    expect(client.accessToken).toBeNull();
    expect(seen).toEqual([null]);
    expect(calls.map((c) => c.url)).toEqual(['/api/recipes/r1', '/api/auth/refresh']);
  });

  it('a refresh answered 503 (a restore is running) keeps the session', async () => {
    const { client, calls } = setup((c) =>
      c.url === '/api/auth/refresh'
        ? json(503, errorBody('maintenance', 'a backup is being restored; try again shortly'), { 'Retry-After': '30' })
        : json(401, errorBody('unauthenticated', 'token expired')),
    );
    await signIn(client, calls);
    await expect(client.getRecipe('r1')).rejects.toMatchObject({ status: 401 });
    expect(client.accessToken).toBe('A1');
    expect(client.user).toEqual(user);
  });

  it('retries only once: a second 401 after a good refresh is thrown', async () => {
    const { client, calls } = setup((c) =>
      c.url === '/api/auth/refresh' ? json(200, { accessToken: 'A2', user }) : json(401, errorBody('unauthenticated', 'no')),
    );
    await signIn(client, calls);
    await expect(client.getRecipe('r1')).rejects.toMatchObject({ status: 401 });
    expect(calls.map((c) => c.url)).toEqual(['/api/recipes/r1', '/api/auth/refresh', '/api/recipes/r1']);
  });

  it('does not refresh for anonymous requests or auth routes', async () => {
    const { client, calls } = setup(() => json(401, errorBody('unauthenticated', 'sign in')));
    await expect(client.createBackup()).rejects.toMatchObject({ status: 401 });
    await signIn(client, calls);
    await expect(client.login('a@b.c', 'bad')).rejects.toMatchObject({ status: 401 });
    expect(calls.every((c) => c.url !== '/api/auth/refresh')).toBe(true);
  });

  it('403 is not a reason to refresh', async () => {
    const { client, calls } = setup(() => json(403, errorBody('forbidden', 'admins only')));
    await signIn(client, calls);
    await expect(client.listUsers()).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    expect(calls).toHaveLength(1);
  });

  it('restoreSession returns the user from the cookie, or null', async () => {
    const ok = setup(() => json(200, { accessToken: 'T', user }));
    await expect(ok.client.restoreSession()).resolves.toEqual(user);
    const none = setup(() => json(401, errorBody('unauthenticated', 'no cookie')));
    await expect(none.client.restoreSession()).resolves.toBeNull();
    const down = setup(() => {
      throw new TypeError('offline');
    });
    await expect(down.client.restoreSession()).resolves.toBeNull();
  });

  it('logout forgets the session even when the server fails', async () => {
    const { client, calls } = setup(() => json(500, errorBody('internal', 'oops')));
    await signIn(client, calls);
    await expect(client.logout()).rejects.toBeInstanceOf(ApiError);
    expect(client.accessToken).toBeNull();
    expect(client.user).toBeNull();
    expect(calls[0].credentials).toBe('include');
  });

  it('verifyEmail signs in when the API answers with tokens', async () => {
    const a = setup(() => json(200, { user }));
    await a.client.verifyEmail('tok');
    expect(a.calls[0].url).toBe('/api/auth/verify-email/tok');
    expect(a.client.accessToken).toBeNull();
    const b = setup(() => json(200, { accessToken: 'V', user }));
    await b.client.verifyEmail('tok');
    expect(b.client.accessToken).toBe('V');
  });

  it('me accepts {user} or a bare user', async () => {
    const a = setup(() => json(200, { user }));
    await expect(a.client.me()).resolves.toEqual(user);
    const b = setup(() => json(200, user));
    await expect(b.client.me()).resolves.toEqual(user);
  });
});

describe('jobs', () => {
  const job = (state: Job['state'], progress: number | null, extra: Partial<Job> = {}): Job => ({
    id: 'j1',
    kind: 'import_recipe',
    state,
    progress,
    result: null,
    error: null,
    createdAt: '2025-10-01T00:00:00Z',
    finishedAt: null,
    ...extra,
  });

  it('polls until completed, reporting each read and backing off', async () => {
    const states = [job('queued', null), job('running', 0.3), job('running', 0.8), job('completed', 1, { result: { recipeId: 'r9' } })];
    const { client, calls, sleeps } = setup(() => json(200, states.shift()));
    const seen: Array<number | null> = [];
    const done = await client.waitForJob('j1', (j) => seen.push(j.progress), { intervalMs: 100, maxIntervalMs: 200 });
    expect(done.result).toEqual({ recipeId: 'r9' });
    expect(seen).toEqual([null, 0.3, 0.8, 1]);
    expect(calls.every((c) => c.url === '/api/jobs/j1')).toBe(true);
    expect(sleeps).toEqual([100, 150, 200]);
  });

  it('rejects with an ApiError carrying the failed job', async () => {
    const failed = job('failed', null, { error: { code: 'no_recipe', message: 'This page has no recipe we can read.' } });
    const { client } = setup(() => json(200, failed));
    const err = await client.waitForJob('j1').catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'no_recipe', message: 'This page has no recipe we can read.', status: 0 });
    expect(err.job).toEqual(failed);
  });

  it('rejects on cancellation', async () => {
    const { client } = setup(() => json(200, job('cancelled', null)));
    await expect(client.waitForJob('j1')).rejects.toMatchObject({ code: 'job_cancelled' });
  });

  it('shows the server\'s plain message for a 503 maintenance answer, and its Retry-After', async () => {
    const { client } = setup(() =>
      json(503, errorBody('maintenance', 'a backup is being restored; try again shortly'), { 'Retry-After': '30' }),
    );
    const err = await client.getRecipe('r1').catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 503, code: 'maintenance', retryAfter: 30 });
    expect(errorMessage(err)).toBe('a backup is being restored; try again shortly');
  });

  it('keeps polling through 503s and network errors (a restore is running)', async () => {
    const answers: Array<() => Response> = [
      () => json(503, errorBody('unavailable', 'restoring')),
      () => {
        throw new TypeError('connection reset');
      },
      () => json(200, job('completed', 1)),
    ];
    const { client } = setup(() => answers.shift()!());
    await expect(client.waitForJob('j1')).resolves.toMatchObject({ state: 'completed' });
  });

  it('keeps polling through a 401 whose refresh could not decide, and ends when the session is known', async () => {
    // A restore has just replaced the sessions: the old token is refused while the refresh is still
    // answered 503, then the refresh works (the restored session) and the job reads completed.
    let refreshes = 0;
    const { client, calls } = setup((c) => {
      if (c.url === '/api/auth/refresh') {
        return ++refreshes === 1 ? json(503, errorBody('maintenance', 'restoring')) : json(200, { accessToken: 'A2', user });
      }
      return c.headers.Authorization === 'Bearer A2' ? json(200, job('completed', 1)) : json(401, errorBody('unauthenticated', 'this session has ended'));
    });
    await signIn(client, calls);
    await expect(client.waitForJob('j1')).resolves.toMatchObject({ state: 'completed' });
    expect(refreshes).toBe(2);
  });

  it('stops polling at a 401 once the session is known to be over', async () => {
    const { client, calls } = setup((c) =>
      c.url === '/api/auth/refresh'
        ? json(401, errorBody('unauthenticated', 'refresh token revoked'))
        : json(401, errorBody('unauthenticated', 'this session has ended')),
    );
    await signIn(client, calls);
    await expect(client.waitForJob('j1')).rejects.toMatchObject({ status: 401 });
    expect(client.accessToken).toBeNull();
    expect(calls.filter((c) => c.url === '/api/jobs/j1')).toHaveLength(1);
  });

  it('gives up after too many transient errors, and at once on 404', async () => {
    const a = setup(() => json(503, errorBody('unavailable', 'down')));
    await expect(a.client.waitForJob('j1', undefined, { maxTransientErrors: 2 })).rejects.toMatchObject({ status: 503 });
    expect(a.calls).toHaveLength(3);
    const b = setup(() => json(404, errorBody('not_found', 'job not found')));
    await expect(b.client.waitForJob('j1')).rejects.toMatchObject({ status: 404 });
    expect(b.calls).toHaveLength(1);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const client = new ApiClient({ fetch: (async () => json(200, job('running', 0.1))) as unknown as typeof fetch });
    const p = client.waitForJob('j1', () => controller.abort(new DOMException('stop', 'AbortError')), {
      signal: controller.signal,
    });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('list shapes', () => {
  it('providers: [] on 404, list otherwise', async () => {
    const a = setup(() => json(404, errorBody('not_found', 'no')));
    await expect(a.client.providers()).resolves.toEqual([]);
    const b = setup(() => json(200, { providers: [{ name: 'google', label: 'Google' }] }));
    await expect(b.client.providers()).resolves.toEqual([{ name: 'google', label: 'Google' }]);
    expect(b.client.providerLoginUrl('google')).toBe('/api/auth/google');
  });

  it('tags accept a page, a keyed list or an array', async () => {
    for (const body of [
      { items: [{ name: 'soup', count: 2 }] },
      { tags: [{ name: 'soup', recipeCount: 2 }] },
      [{ name: 'soup', count: 2 }],
    ]) {
      const { client } = setup(() => json(200, body));
      await expect(client.listTags()).resolves.toEqual([{ name: 'soup', count: 2 }]);
    }
  });

  it('tags follow nextCursor across pages', async () => {
    const { client, calls } = setup((c) =>
      c.url.includes('cursor=p2')
        ? json(200, { items: [{ name: 'b', count: 1 }], nextCursor: null, total: 2 })
        : json(200, { items: [{ name: 'a', count: 3 }], nextCursor: 'p2', total: 2 }),
    );
    await expect(client.listTags()).resolves.toEqual([
      { name: 'a', count: 3 },
      { name: 'b', count: 1 },
    ]);
    expect(calls.map((c) => c.url)).toEqual(['/api/tags?limit=100', '/api/tags?limit=100&cursor=p2']);
  });

  it('cookbook recipe pages: the collection route, else the cookbook with a cursor', async () => {
    const page = { items: [{ id: 'r2' }], nextCursor: null, total: 2 };
    const a = setup(() => json(200, page));
    await expect(a.client.cookbookRecipesPage('c1', 'cur')).resolves.toEqual(page);
    expect(a.calls[0].url).toBe('/api/cookbooks/c1/recipes?cursor=cur&limit=24');
    const b = setup((c) =>
      c.url.startsWith('/api/cookbooks/c1/recipes') ? json(405, errorBody('method_not_allowed', 'no')) : json(200, { id: 'c1', recipes: page }),
    );
    await expect(b.client.cookbookRecipesPage('c1', 'cur')).resolves.toEqual(page);
    expect(b.calls[1].url).toBe('/api/cookbooks/c1?cursor=cur&limit=24');
  });

  it('categories: [] when the route does not exist', async () => {
    const { client } = setup(() => json(404, errorBody('not_found', 'no')));
    await expect(client.listCategories()).resolves.toEqual([]);
  });

  it('backups get sizes and a date from the name when missing', async () => {
    const { client } = setup(() => json(200, { items: [{ name: 'backup-20251001T101500Z.zip', sizeBytes: 2048 }] }));
    await expect(client.listBackups()).resolves.toEqual([
      { name: 'backup-20251001T101500Z.zip', size: 2048, createdAt: '2025-10-01T10:15:00Z' },
    ]);
  });

  it('shares accept {shares} or {items}', async () => {
    const share = { userId: 'u2', email: 'b@x.y' };
    const { client, calls } = setup(() => json(200, { shares: [share] }));
    await expect(client.listShares('r1')).resolves.toEqual([share]);
    await client.removeShare('r1', 'u2');
    expect(calls[1]).toMatchObject({ method: 'DELETE', url: '/api/recipes/r1/shares/u2' });
  });

  it('mappings round-trip', async () => {
    const m = [{ ingredientId: 'i1', stepId: 's1' }];
    const { client, calls } = setup((c) => json(200, c.method === 'PUT' ? c.body : { mappings: m }));
    await expect(client.getMappings('r1')).resolves.toEqual(m);
    await expect(client.putMappings('r1', m)).resolves.toEqual(m);
    expect(calls[1].body).toEqual({ mappings: m });
  });

  it('normalizePage, buildQuery and backupDate', () => {
    expect(normalizePage([1, 2])).toEqual({ items: [1, 2], nextCursor: null, total: 2 });
    expect(normalizePage({ items: [1], nextCursor: 'c', total: 5 })).toEqual({ items: [1], nextCursor: 'c', total: 5 });
    expect(normalizePage(undefined)).toEqual({ items: [], nextCursor: null, total: 0 });
    expect(buildQuery({ a: 1, b: '', c: null, d: 'x y' })).toBe('?a=1&d=x+y');
    expect(buildQuery({})).toBe('');
    expect(backupDate('backup-20251231T235959Z.zip')).toBe('2025-12-31T23:59:59Z');
    expect(backupDate('backup-2025.zip')).toBeNull();
  });
});

/** A minimal XMLHttpRequest double: answers with `respond` after reporting progress. */
class FakeXhr {
  static requests: FakeXhr[] = [];
  static respond: (x: FakeXhr) => { status: number; body: unknown };
  method = '';
  url = '';
  headers: Record<string, string> = {};
  status = 0;
  responseText = '';
  form?: FormData;
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  getResponseHeader() {
    return null;
  }
  abort() {
    this.onabort?.();
  }
  send(form: FormData) {
    this.form = form;
    FakeXhr.requests.push(this);
    queueMicrotask(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 } as ProgressEvent);
      const r = FakeXhr.respond(this);
      this.status = r.status;
      this.responseText = r.body === undefined ? '' : JSON.stringify(r.body);
      this.onload?.();
    });
  }
}

describe('uploads and downloads', () => {
  it('uploads multipart with progress and the bearer token', async () => {
    FakeXhr.requests = [];
    FakeXhr.respond = () => ({ status: 200, body: { id: 'r1', imageUrl: '/uploads/x.webp' } });
    const client = new ApiClient({
      fetch: (async () => json(200, { accessToken: 'T', user })) as unknown as typeof fetch,
      createXhr: () => new FakeXhr() as unknown as XMLHttpRequest,
    });
    await client.login(user.email, 'x');
    const progress: number[] = [];
    const file = new File([new Uint8Array([1, 2, 3])], 'pic.png', { type: 'image/png' });
    const r = await client.uploadRecipeImage('r1', file, { onProgress: (p) => progress.push(p) });
    expect(r).toEqual({ id: 'r1', imageUrl: '/uploads/x.webp' });
    expect(progress).toEqual([0.5, 1]);
    const x = FakeXhr.requests[0];
    expect(x.method).toBe('POST');
    expect(x.url).toBe('/api/recipes/r1/image');
    expect(x.headers.Authorization).toBe('Bearer T');
    expect((x.form!.get('image') as File).name).toBe('pic.png');
  });

  it('refreshes and retries an upload on 401, and maps error bodies', async () => {
    FakeXhr.requests = [];
    FakeXhr.respond = (x) =>
      x.headers.Authorization === 'Bearer T2'
        ? { status: 413, body: errorBody('payload_too_large', 'The image is over 20 MB.') }
        : { status: 401, body: errorBody('unauthenticated', 'expired') };
    const client = new ApiClient({
      fetch: (async (u: string) =>
        json(200, { accessToken: String(u).endsWith('/refresh') ? 'T2' : 'T1', user })) as unknown as typeof fetch,
      createXhr: () => new FakeXhr() as unknown as XMLHttpRequest,
    });
    await client.login(user.email, 'x');
    const err = await client.uploadBackup(new Blob(['zip'])).catch((e) => e);
    expect(FakeXhr.requests).toHaveLength(2);
    expect(FakeXhr.requests[1].url).toBe('/api/backups/upload');
    expect(FakeXhr.requests[1].form!.get('backup')).toBeTruthy();
    expect(err).toMatchObject({ status: 413, code: 'payload_too_large', message: 'The image is over 20 MB.' });
  });

  it('downloads a backup as a blob with its file name', async () => {
    const { client, calls } = setup(
      () =>
        new Response('PK..', {
          status: 200,
          headers: { 'Content-Disposition': 'attachment; filename="backup-20251001T101500Z.zip"' },
        }),
    );
    await signIn(client, calls);
    const { blob, filename } = await client.downloadBackup('backup-20251001T101500Z.zip');
    expect(await blob.text()).toBe('PK..');
    expect(filename).toBe('backup-20251001T101500Z.zip');
    expect(calls[0].headers.Authorization).toBe('Bearer A1');
    expect(calls[0].url).toBe('/api/backups/backup-20251001T101500Z.zip/download');
  });

  it('a failed download throws the API error', async () => {
    const { client } = setup(() => json(400, errorBody('invalid_request', 'bad backup name')));
    await expect(client.downloadBackup('nope')).rejects.toMatchObject({ status: 400, message: 'bad backup name' });
  });
});

describe('waitIfJob', () => {
  it('waits for a job answer and passes anything else through', async () => {
    const { client, calls } = setup(() =>
      json(200, { id: 'j2', kind: 'process_image', state: 'completed', progress: 1, result: null, error: null, createdAt: '', finishedAt: '' }),
    );
    await expect(client.waitIfJob({ id: 'r1', imageUrl: '/uploads/a.webp' })).resolves.toBeNull();
    expect(calls).toHaveLength(0);
    await expect(client.waitIfJob({ job: { id: 'j2' } })).resolves.toMatchObject({ state: 'completed' });
    expect(calls[0].url).toBe('/api/jobs/j2');
  });
});
