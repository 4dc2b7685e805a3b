/**
 * The one HTTP client of the web app, following docs/api.md.
 *
 * - The access token lives in memory only (never in storage); the refresh token is the
 *   HttpOnly `refresh_token` cookie (Path=/api/auth), so refresh calls use credentials: 'include'.
 * - A 401 on a request that carried a token triggers one POST /api/auth/refresh, then one retry.
 *   Concurrent 401s share the same refresh; requests started while it runs wait for it.
 * - Every failure is an ApiError built from the `{"error":{code,message,fields}}` body.
 */

import createClient from 'openapi-fetch';
import type { components, paths } from './api.gen';

// The shapes of the API are generated from the served OpenAPI document (api.gen.ts, `npm run gen:api`);
// the names below are the ones the pages use.
type Schemas = components['schemas'];

export type Role = Schemas['User']['role'];
export type Visibility = Schemas['Recipe']['visibility'];
export type JobState = Schemas['Job']['state'];
export type User = Schemas['User'];
export type Recipe = Schemas['Recipe'];
/** A recipe as lists give it: no ingredient or instruction sections. */
export type RecipeSummary = Schemas['RecipeSummary'];
export type IngredientSection = Recipe['ingredientSections'][number];
export type InstructionSection = Recipe['instructionSections'][number];
export type Ingredient = IngredientSection['ingredients'][number];
export type Step = InstructionSection['steps'][number];
/** Smaller renditions of an image, by name ("thumb", "medium") → address; {} until made. */
export type ImageVariants = Recipe['imageVariants'];
/** Body of POST/PUT /api/recipes; items keep their id on edit so mappings survive. */
export type RecipeInput = Schemas['RecipeInput'];

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  total: number;
}

export type Cookbook = Schemas['Cookbook'];
export type CookbookDetail = Schemas['CookbookDetail'];
export type CookbookInput = Schemas['CookbookInput'];
export type Job = Schemas['Job'];
export type JobError = NonNullable<Job['error']>;
export type Mapping = Schemas['MappingLink'];
export type Share = Schemas['Share'];
export type TagCount = Schemas['Tag'];
export type Backup = Schemas['Backup'];

export interface Provider {
  name: string;
  label: string;
}

export type AuthResult = Schemas['AuthSession'];

export interface RecipeFilters {
  q?: string;
  category?: string;
  tag?: string;
  visibility?: Visibility;
  owner?: 'me';
  limit?: number;
  cursor?: string | null;
}

/** The one error type of the client: an API error body, a network failure or a failed job. */
export class ApiError extends Error {
  /** HTTP status; 0 when no HTTP answer explains it (network failure, failed job). */
  readonly status: number;
  /** snake_case code from the body (`not_found`, `validation_failed`, `network_error`, …). */
  readonly code: string;
  /** Per-field messages of a validation error, keyed by field name. */
  readonly fields: Record<string, string>;
  /** Seconds from a 429's Retry-After header. */
  readonly retryAfter?: number;
  /** The failed job, when the error comes from waitForJob. */
  readonly job?: Job;

  constructor(
    status: number,
    code: string,
    message: string,
    fields: Record<string, string> = {},
    extra: { retryAfter?: number; job?: Job } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.retryAfter = extra.retryAfter;
    this.job = extra.job;
  }

  /** Builds the error from a response status, its parsed body (if any) and Retry-After. */
  static fromResponse(status: number, body: unknown, retryAfterHeader?: string | null): ApiError {
    const retryAfter = parseRetryAfter(retryAfterHeader);
    const err = isObject(body) && isObject(body.error) ? body.error : null;
    if (err && typeof err.code === 'string') {
      const fields: Record<string, string> = {};
      if (isObject(err.fields)) {
        for (const [k, v] of Object.entries(err.fields)) if (typeof v === 'string') fields[k] = v;
      }
      const message = typeof err.message === 'string' && err.message ? err.message : fallbackMessage(status, retryAfter);
      return new ApiError(status, err.code, message, fields, { retryAfter });
    }
    return new ApiError(status, fallbackCode(status), fallbackMessage(status, retryAfter), {}, { retryAfter });
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseRetryAfter(h: string | null | undefined): number | undefined {
  if (!h) return undefined;
  const n = Number(h);
  if (Number.isFinite(n)) return Math.max(0, Math.round(n));
  const t = Date.parse(h);
  return Number.isNaN(t) ? undefined : Math.max(0, Math.round((t - Date.now()) / 1000));
}

function fallbackCode(status: number): string {
  const codes: Record<number, string> = {
    400: 'invalid_request',
    401: 'unauthenticated',
    403: 'forbidden',
    404: 'not_found',
    409: 'conflict',
    413: 'payload_too_large',
    415: 'unsupported_media_type',
    429: 'rate_limited',
    503: 'unavailable',
  };
  return codes[status] ?? (status >= 500 ? 'internal' : 'http_error');
}

function fallbackMessage(status: number, retryAfter?: number): string {
  switch (status) {
    case 401:
      return 'Please sign in.';
    case 403:
      return 'You are not allowed to do that.';
    case 404:
      return 'Not found.';
    case 413:
      return 'That file is too large.';
    case 415:
      return 'That file type is not supported.';
    case 429:
      return retryAfter
        ? `Too many attempts. Try again in ${Math.ceil(retryAfter / 60)} minute${retryAfter > 60 ? 's' : ''}.`
        : 'Too many attempts. Try again later.';
    case 503:
      return 'The service is unavailable right now. Try again in a moment.';
    default:
      return status >= 500 ? 'Something went wrong on the server.' : `The request failed (${status}).`;
  }
}

/** A message for any thrown value, for places that show errors to people. */
export function errorMessage(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  if (e instanceof Error && e.message) return e.message;
  return 'Something went wrong.';
}

/** Accepts a list as an array or a page and returns a page. */
export function normalizePage<T>(v: T[] | Page<T> | null | undefined): Page<T> {
  if (!v) return { items: [], nextCursor: null, total: 0 };
  if (Array.isArray(v)) return { items: v, nextCursor: null, total: v.length };
  return { items: v.items ?? [], nextCursor: v.nextCursor ?? null, total: v.total ?? v.items?.length ?? 0 };
}

/** Accepts a list that may be bare, a page, or wrapped under a key (`{shares: [...]}`). */
function listOf<T>(v: unknown, key: string): T[] {
  if (Array.isArray(v)) return v as T[];
  if (isObject(v)) {
    if (Array.isArray(v.items)) return v.items as T[];
    if (Array.isArray(v[key])) return v[key] as T[];
  }
  return [];
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  query?: Query;
  /** JSON body; FormData is sent as multipart. */
  body?: unknown;
  signal?: AbortSignal;
  /** Do not try a refresh on 401 (the auth routes themselves). */
  noRefresh?: boolean;
  /** Send cookies (only the /api/auth routes need the refresh cookie). */
  withCookies?: boolean;
}

export interface UploadOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  query?: Query;
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** First polling interval in ms (grows by half up to maxIntervalMs). */
  intervalMs?: number;
  maxIntervalMs?: number;
  /** Consecutive network errors or 503s tolerated while polling (a restore answers 503). */
  maxTransientErrors?: number;
}

type SessionListener = (user: User | null) => void;

interface RawResponse {
  status: number;
  text: string;
  header(name: string): string | null;
}

export interface ApiClientOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  createXhr?: () => XMLHttpRequest;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export function buildQuery(query?: Query): string {
  if (!query) return '';
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

const seg = encodeURIComponent;

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class ApiClient {
  private token: string | null = null;
  private currentUser: User | null = null;
  private refreshing: Promise<boolean> | null = null;
  private readonly listeners = new Set<SessionListener>();
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly createXhr: () => XMLHttpRequest;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  /**
   * The generated client (openapi-fetch over the OpenAPI paths): it builds each request, with its
   * path, query and body checked against the server's document at compile time, and hands it to
   * this client's transport (token, one refresh on 401, the one error type).
   */
  private readonly typed = createClient<paths>({ baseUrl: typedOrigin, fetch: (req) => this.transport(req) });

  constructor(opts: ApiClientOptions = {}) {
    this.baseUrl = opts.baseUrl ?? '';
    // Bound so that calling it detached from window keeps working.
    this.fetchImpl = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.createXhr = opts.createXhr ?? (() => new XMLHttpRequest());
    this.sleep = opts.sleep ?? defaultSleep;
  }

  // ---- session ----

  get accessToken(): string | null {
    return this.token;
  }

  get user(): User | null {
    return this.currentUser;
  }

  /** Subscribes to sign-in, sign-out and expired sessions; returns the unsubscribe function. */
  onSession(fn: SessionListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private setSession(token: string | null, user: User | null) {
    this.token = token;
    this.currentUser = user;
    for (const fn of this.listeners) fn(user);
  }

  /** Updates the cached user (after a profile read) without touching the token. */
  private setUser(user: User) {
    this.currentUser = user;
    for (const fn of this.listeners) fn(user);
  }

  /**
   * Exchanges the refresh cookie for a new access token. Concurrent callers share one
   * request. Resolves true when a session is active afterwards.
   */
  refresh(): Promise<boolean> {
    if (!this.refreshing) {
      this.refreshing = (async () => {
        try {
          const res = await this.fetchImpl(this.url('/api/auth/refresh'), {
            method: 'POST',
            credentials: 'include',
            headers: { Accept: 'application/json' },
          });
          // 5xx (a backup being restored answers 503 maintenance): the server
          // cannot say now; keep the session, as on a network failure.
          if (res.status >= 500) return false;
          if (!res.ok) {
            // The cookie is missing, expired or rotated away: the session is over.
            if (this.token || this.currentUser) this.setSession(null, null);
            return false;
          }
          const data = (await res.json()) as AuthResult;
          this.setSession(data.accessToken, data.user);
          return true;
        } catch {
          // Network failure: keep whatever session there is; the caller sees its own error.
          return false;
        } finally {
          this.refreshing = null;
        }
      })();
    }
    return this.refreshing;
  }

  /** Silent sign-in at app start from the refresh cookie. */
  async restoreSession(): Promise<User | null> {
    await this.refresh();
    return this.currentUser;
  }

  // ---- transport ----

  private url(path: string, query?: Query): string {
    return `${this.baseUrl}${path}${buildQuery(query)}`;
  }

  /** Sends a request built by the generated client through send, with the refresh rule. */
  private async transport(req: Request): Promise<Response> {
    const u = new URL(req.url);
    const text = req.body ? await req.text() : '';
    const res = await this.withRefresh(false, (token) =>
      this.send(req.method, u.pathname + u.search, { body: text ? JSON.parse(text) : undefined, signal: req.signal }, token),
    );
    const headers = new Headers();
    const retryAfter = res.header('Retry-After');
    if (retryAfter) headers.set('Retry-After', retryAfter);
    if (res.text) headers.set('Content-Type', 'application/json');
    return new Response(res.status === 204 || !res.text ? null : res.text, { status: res.status, headers });
  }

  /** The body of a generated call's answer, or its ApiError. */
  private async result<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await call;
    if (!response.ok) throw ApiError.fromResponse(response.status, error, response.headers.get('Retry-After'));
    return data as T;
  }

  /** Sends one request and returns the parsed JSON body (undefined for 204). */
  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const res = await this.withRefresh(opts.noRefresh, (token) => this.send(method, path, opts, token));
    return parse<T>(res);
  }

  /** Runs send with the current token; on 401 refreshes once (shared) and runs it again. */
  private async withRefresh(noRefresh: boolean | undefined, send: (token: string | null) => Promise<RawResponse>) {
    if (this.refreshing && !noRefresh) await this.refreshing;
    const sent = this.token;
    let res = await send(sent);
    if (res.status === 401 && !noRefresh && sent) {
      // Another request may already have refreshed while this one was in flight.
      const ok = this.token !== sent ? this.token !== null : await this.refresh();
      if (ok && this.token) res = await send(this.token);
    }
    return res;
  }

  private async send(method: string, path: string, opts: RequestOptions, token: string | null): Promise<RawResponse> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    let body: BodyInit | undefined;
    if (opts.body instanceof FormData) {
      body = opts.body;
    } else if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    if (token) headers.Authorization = `Bearer ${token}`;
    let res: Response;
    try {
      res = await this.fetchImpl(this.url(path, opts.query), {
        method,
        headers,
        body,
        signal: opts.signal,
        credentials: opts.withCookies ? 'include' : 'same-origin',
      });
    } catch (e) {
      if (isAbort(e)) throw e;
      throw new ApiError(0, 'network_error', 'Could not reach the server. Check your connection and try again.');
    }
    const text = res.status === 204 ? '' : await res.text();
    return { status: res.status, text, header: (n) => res.headers.get(n) };
  }

  /** GET a file with the bearer token (e.g. a backup download) as a Blob. */
  async download(path: string, signal?: AbortSignal): Promise<{ blob: Blob; filename: string | null }> {
    const got: { blob?: Blob; disposition?: string | null } = {};
    const res = await this.withRefresh(false, async (token) => {
      let r: Response;
      try {
        r = await this.fetchImpl(this.url(path), {
          headers: token ? { Authorization: `Bearer ${token}` } : {},
          signal,
        });
      } catch (e) {
        if (isAbort(e)) throw e;
        throw new ApiError(0, 'network_error', 'Could not reach the server. Check your connection and try again.');
      }
      if (r.ok) {
        got.blob = await r.blob();
        got.disposition = r.headers.get('Content-Disposition');
        return { status: r.status, text: '', header: (n) => r.headers.get(n) };
      }
      return { status: r.status, text: await r.text(), header: (n) => r.headers.get(n) };
    });
    parse(res);
    if (!got.blob) throw new ApiError(res.status, 'invalid_response', 'The download was empty.');
    return { blob: got.blob, filename: filenameFrom(got.disposition ?? null) };
  }

  /**
   * POSTs one file as multipart with upload progress (fetch cannot report it), with the same
   * 401 → refresh → retry rule as request().
   */
  async upload<T>(path: string, field: string, file: Blob, opts: UploadOptions = {}): Promise<T> {
    const res = await this.withRefresh(false, (token) => this.sendXhr(path, field, file, opts, token));
    return parse<T>(res);
  }

  private sendXhr(path: string, field: string, file: Blob, opts: UploadOptions, token: string | null): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const xhr = this.createXhr();
      xhr.open('POST', this.url(path, opts.query));
      xhr.setRequestHeader('Accept', 'application/json');
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      xhr.upload.onprogress = (e: ProgressEvent) => {
        if (e.lengthComputable && e.total > 0) opts.onProgress?.(e.loaded / e.total);
      };
      xhr.onload = () => {
        opts.onProgress?.(1);
        resolve({ status: xhr.status, text: xhr.responseText, header: (n) => xhr.getResponseHeader(n) });
      };
      xhr.onerror = () =>
        reject(new ApiError(0, 'network_error', 'The upload failed. Check your connection and try again.'));
      xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
      if (opts.signal) {
        if (opts.signal.aborted) return reject(opts.signal.reason);
        opts.signal.addEventListener('abort', () => xhr.abort(), { once: true });
      }
      const form = new FormData();
      form.append(field, file, file instanceof File ? file.name : 'upload');
      xhr.send(form);
    });
  }

  get<T>(path: string, query?: Query, signal?: AbortSignal) {
    return this.request<T>('GET', path, { query, signal });
  }

  // ---- jobs ----

  getJob(id: string, signal?: AbortSignal) {
    return this.result(this.typed.GET('/api/jobs/{id}', { params: { path: { id } }, signal }));
  }

  /**
   * Polls GET /api/jobs/:id until the job ends. Resolves with the completed job; rejects
   * with an ApiError carrying the job (code from job.error) when it failed or was cancelled.
   * onProgress gets every job read, so callers can show state and progress.
   */
  async waitForJob(id: string, onProgress?: (job: Job) => void, opts: WaitOptions = {}): Promise<Job> {
    let interval = opts.intervalMs ?? 500;
    const maxInterval = opts.maxIntervalMs ?? 2000;
    const maxTransient = opts.maxTransientErrors ?? 30;
    let transient = 0;
    for (;;) {
      let job: Job;
      try {
        job = await this.getJob(id, opts.signal);
        transient = 0;
      } catch (e) {
        // Transient: the server is restarting or restoring (502, 503), the network failed (0), or a 401
        // after which this client still holds its session, because the refresh could not say whether the
        // session lives (it was answered 503 while a restore finished). The next poll refreshes again.
        const undecided = e instanceof ApiError && e.status === 401 && this.token !== null;
        if (e instanceof ApiError && (e.status === 0 || e.status === 503 || e.status === 502 || undecided) && ++transient <= maxTransient) {
          await this.sleep(maxInterval, opts.signal);
          continue;
        }
        throw e;
      }
      onProgress?.(job);
      if (job.state === 'completed') return job;
      if (job.state === 'failed' || job.state === 'cancelled') {
        throw new ApiError(
          0,
          job.error?.code ?? (job.state === 'cancelled' ? 'job_cancelled' : 'job_failed'),
          job.error?.message ?? (job.state === 'cancelled' ? 'The job was cancelled.' : 'The job failed.'),
          {},
          { job },
        );
      }
      await this.sleep(interval, opts.signal);
      interval = Math.min(maxInterval, Math.round(interval * 1.5));
    }
  }

  /**
   * Some writes may answer with a job instead of the result (image processing, for one):
   * waits for that job when there is one, and returns immediately otherwise.
   */
  async waitIfJob(res: unknown, onProgress?: (job: Job) => void, opts?: WaitOptions): Promise<Job | null> {
    if (isObject(res) && isObject(res.job) && typeof res.job.id === 'string') {
      return this.waitForJob(res.job.id, onProgress, opts);
    }
    return null;
  }

  // ---- auth ----

  async login(email: string, password: string): Promise<User> {
    const data = await this.request<AuthResult>('POST', '/api/auth/login', {
      body: { email, password },
      noRefresh: true,
      withCookies: true,
    });
    this.setSession(data.accessToken, data.user);
    return data.user;
  }

  async logout(): Promise<void> {
    try {
      await this.request('POST', '/api/auth/logout', { noRefresh: true, withCookies: true });
    } finally {
      // Whatever the server said, this tab forgets the session.
      this.setSession(null, null);
    }
  }

  register(input: { email: string; password: string; name?: string }) {
    return this.request<{ user: User }>('POST', '/api/auth/register', { body: input, noRefresh: true });
  }

  /** Verifies an email address; signs in too when the API answers with tokens. */
  async verifyEmail(token: string): Promise<{ user?: User }> {
    const data = await this.request<Partial<AuthResult> | undefined>('GET', `/api/auth/verify-email/${seg(token)}`, {
      noRefresh: true,
      withCookies: true,
    });
    if (data?.accessToken && data.user) this.setSession(data.accessToken, data.user);
    return { user: data?.user };
  }

  resendVerification(email: string) {
    return this.request<unknown>('POST', '/api/auth/resend-verification', { body: { email }, noRefresh: true });
  }

  forgotPassword(email: string) {
    return this.request<unknown>('POST', '/api/auth/forgot-password', { body: { email }, noRefresh: true });
  }

  resetPassword(token: string, password: string) {
    return this.request<unknown>('POST', '/api/auth/reset-password', { body: { token, password }, noRefresh: true });
  }

  async me(): Promise<User> {
    const data = await this.request<User | { user: User }>('GET', '/api/auth/me');
    const user = 'user' in data && isObject(data.user) ? (data.user as User) : (data as User);
    this.setUser(user);
    return user;
  }

  /** Identity providers the API offers; [] when the route is missing or none is set up. */
  async providers(): Promise<Provider[]> {
    try {
      const data = await this.request<unknown>('GET', '/api/auth/providers', { noRefresh: true });
      return listOf<Provider>(data, 'providers').filter((p) => p && typeof p.name === 'string');
    } catch (e) {
      if (e instanceof ApiError && (e.status === 404 || e.status === 405)) return [];
      throw e;
    }
  }

  /** Where the browser goes to start signing in with a provider. */
  providerLoginUrl(name: string): string {
    return this.url(`/api/auth/${seg(name)}`);
  }

  // ---- recipes ----

  listRecipes(filters: RecipeFilters = {}, signal?: AbortSignal) {
    const query = definedOnly({ ...filters });
    return this.result(this.typed.GET('/api/recipes', { params: { query }, signal }));
  }

  getRecipe(id: string, signal?: AbortSignal) {
    return this.result(this.typed.GET('/api/recipes/{id}', { params: { path: { id } }, signal }));
  }

  createRecipe(input: RecipeInput) {
    return this.result(this.typed.POST('/api/recipes', { body: input }));
  }

  updateRecipe(id: string, input: RecipeInput) {
    return this.result(this.typed.PUT('/api/recipes/{id}', { params: { path: { id } }, body: input }));
  }

  deleteRecipe(id: string) {
    return this.request<void>('DELETE', `/api/recipes/${seg(id)}`);
  }

  /** Answers with the recipe, or with {job} when the API processes the image as a job. */
  uploadRecipeImage(id: string, file: Blob, opts?: UploadOptions) {
    return this.upload<Recipe | { job: Job } | undefined>(`/api/recipes/${seg(id)}/image`, 'image', file, opts);
  }

  deleteRecipeImage(id: string) {
    return this.request<Recipe | undefined>('DELETE', `/api/recipes/${seg(id)}/image`);
  }

  /** Starts an import; html is the page's source when the user pasted it. */
  async importRecipe(url: string, html?: string): Promise<Job> {
    const data = await this.request<{ job: Job }>('POST', '/api/recipes/import', {
      body: html ? { url, html } : { url },
    });
    return data.job;
  }

  async listShares(id: string): Promise<Share[]> {
    return listOf<Share>(await this.get<unknown>(`/api/recipes/${seg(id)}/shares`), 'shares');
  }

  addShare(id: string, email: string) {
    return this.request<Share | { share: Share }>('POST', `/api/recipes/${seg(id)}/shares`, { body: { email } });
  }

  removeShare(id: string, userId: string) {
    return this.request<void>('DELETE', `/api/recipes/${seg(id)}/shares/${seg(userId)}`);
  }

  async getMappings(id: string, signal?: AbortSignal): Promise<Mapping[]> {
    const data = await this.get<{ mappings: Mapping[] }>(`/api/recipes/${seg(id)}/mappings`, undefined, signal);
    return data?.mappings ?? [];
  }

  async putMappings(id: string, mappings: Mapping[]): Promise<Mapping[]> {
    const data = await this.request<{ mappings: Mapping[] } | undefined>('PUT', `/api/recipes/${seg(id)}/mappings`, {
      body: { mappings },
    });
    return data?.mappings ?? mappings;
  }

  async regenerateMappings(id: string): Promise<Job> {
    return (await this.request<{ job: Job }>('POST', `/api/recipes/${seg(id)}/mappings/regenerate`)).job;
  }

  /**
   * Every tag visible to the caller with its recipe count. The route pages like any list, so
   * this follows nextCursor (100 a page, at most 10 pages: enough for any filter menu).
   */
  async listTags(signal?: AbortSignal): Promise<TagCount[]> {
    return this.allNames('/api/tags', 'tags', signal);
  }

  private async allNames(path: string, key: string, signal?: AbortSignal): Promise<TagCount[]> {
    const out: TagCount[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const data: unknown = await this.get<unknown>(path, { limit: 100, cursor }, signal);
      for (const t of listOf<TagCount & { recipeCount?: number }>(data, key)) {
        out.push({ name: t.name, count: t.count ?? t.recipeCount ?? 0 });
      }
      cursor = isObject(data) && typeof data.nextCursor === 'string' ? data.nextCursor : null;
      if (!cursor) break;
    }
    return out;
  }

  /** Category names with counts; [] when the API has no such route (then the UI collects them). */
  async listCategories(signal?: AbortSignal): Promise<TagCount[]> {
    try {
      return await this.allNames('/api/categories', 'categories', signal);
    } catch (e) {
      if (e instanceof ApiError && (e.status === 404 || e.status === 405)) return [];
      throw e;
    }
  }

  // ---- cookbooks ----

  listCookbooks(query: { q?: string; owner?: 'me'; limit?: number; cursor?: string | null } = {}, signal?: AbortSignal) {
    return this.get<Page<Cookbook>>('/api/cookbooks', { ...query }, signal);
  }

  getCookbook(id: string, signal?: AbortSignal) {
    return this.result(this.typed.GET('/api/cookbooks/{id}', { params: { path: { id } }, signal }));
  }

  /**
   * The next page of a cookbook's resolved recipes, when GET /api/cookbooks/:id answered with a
   * page: GET /api/cookbooks/:id/recipes?cursor=…, or, where that route does not exist,
   * GET /api/cookbooks/:id?cursor=… read for its `recipes`.
   */
  async cookbookRecipesPage(id: string, cursor: string, limit = 24): Promise<Page<RecipeSummary>> {
    try {
      return normalizePage(await this.get<Page<RecipeSummary>>(`/api/cookbooks/${seg(id)}/recipes`, { cursor, limit }));
    } catch (e) {
      if (!(e instanceof ApiError && (e.status === 404 || e.status === 405))) throw e;
      const detail = await this.get<CookbookDetail>(`/api/cookbooks/${seg(id)}`, { cursor, limit });
      return normalizePage(detail.recipes);
    }
  }

  createCookbook(input: CookbookInput) {
    return this.request<Cookbook>('POST', '/api/cookbooks', { body: input });
  }

  updateCookbook(id: string, input: CookbookInput) {
    return this.request<Cookbook>('PUT', `/api/cookbooks/${seg(id)}`, { body: input });
  }

  deleteCookbook(id: string) {
    return this.request<void>('DELETE', `/api/cookbooks/${seg(id)}`);
  }

  setCookbookAutoFilters(id: string, autoFilterCategories: string[], autoFilterTags: string[]) {
    return this.request<Cookbook>('PUT', `/api/cookbooks/${seg(id)}/auto-filters`, {
      body: { autoFilterCategories, autoFilterTags },
    });
  }

  uploadCookbookImage(id: string, file: Blob, opts?: UploadOptions) {
    return this.upload<Cookbook | { job: Job } | undefined>(`/api/cookbooks/${seg(id)}/image`, 'image', file, opts);
  }

  async cookbookImageFromUrl(id: string, url: string): Promise<Job> {
    return (await this.request<{ job: Job }>('POST', `/api/cookbooks/${seg(id)}/image/from-url`, { body: { url } })).job;
  }

  addRecipeToCookbook(id: string, recipeId: string) {
    return this.request<unknown>('PUT', `/api/cookbooks/${seg(id)}/recipes/${seg(recipeId)}`);
  }

  removeRecipeFromCookbook(id: string, recipeId: string) {
    return this.request<void>('DELETE', `/api/cookbooks/${seg(id)}/recipes/${seg(recipeId)}`);
  }

  includeCookbook(id: string, childId: string) {
    return this.request<unknown>('PUT', `/api/cookbooks/${seg(id)}/cookbooks/${seg(childId)}`);
  }

  excludeCookbook(id: string, childId: string) {
    return this.request<void>('DELETE', `/api/cookbooks/${seg(id)}/cookbooks/${seg(childId)}`);
  }

  // ---- admin ----

  listUsers(query: { cursor?: string | null; limit?: number; q?: string } = {}) {
    return this.get<Page<User>>('/api/admin/users', { ...query });
  }

  async setUserRole(id: string, role: Role): Promise<User> {
    const data = await this.request<User | { user: User }>('PATCH', `/api/admin/users/${seg(id)}`, { body: { role } });
    return 'user' in data && isObject(data.user) ? (data.user as User) : (data as User);
  }

  async listBackups(): Promise<Backup[]> {
    const data = await this.get<unknown>('/api/backups');
    return listOf<Backup & { sizeBytes?: number }>(data, 'backups').map((b) => ({
      name: b.name,
      size: b.size ?? b.sizeBytes ?? 0,
      createdAt: b.createdAt ?? backupDate(b.name) ?? '',
    }));
  }

  async createBackup(): Promise<Job> {
    return (await this.request<{ job: Job }>('POST', '/api/backups')).job;
  }

  uploadBackup(file: Blob, opts?: UploadOptions) {
    return this.upload<unknown>('/api/backups/upload', 'backup', file, opts);
  }

  async restoreBackup(name: string): Promise<Job> {
    return (await this.request<{ job: Job }>('POST', `/api/backups/${seg(name)}/restore`)).job;
  }

  deleteBackup(name: string) {
    return this.request<void>('DELETE', `/api/backups/${seg(name)}`);
  }

  downloadBackup(name: string) {
    return this.download(`/api/backups/${seg(name)}/download`);
  }

  health() {
    return this.request<{ status: string; version: string }>('GET', '/api/health', { noRefresh: true });
  }
}

function isAbort(e: unknown): boolean {
  return e instanceof DOMException && e.name === 'AbortError';
}

/**
 * The origin the generated client builds its URLs on: Request needs an absolute URL, and the
 * transport keeps only the path and query, sending them to baseUrl like every other request.
 */
const typedOrigin = 'http://larder.invalid';

/** The query without the filters left empty (undefined, null or ""), which the API would refuse or misread. */
function definedOnly<T extends Record<string, unknown>>(q: T): { [K in keyof T]?: Exclude<T[K], null> } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== null && v !== '') out[k] = v;
  return out as { [K in keyof T]?: Exclude<T[K], null> };
}

function parse<T>(res: RawResponse): T {
  let body: unknown;
  if (res.text) {
    try {
      body = JSON.parse(res.text);
    } catch {
      body = undefined;
    }
  }
  if (res.status < 200 || res.status >= 300) {
    throw ApiError.fromResponse(res.status, body, res.header('Retry-After'));
  }
  return body as T;
}

function filenameFrom(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall through to the plain form */
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  return plain ? plain[1].trim() : null;
}

/** The UTC time encoded in a backup name `backup-YYYYMMDDTHHMMSSZ.zip`, as RFC 3339. */
export function backupDate(name: string): string | null {
  const m = /^backup-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.zip$/.exec(name);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z` : null;
}

/** The app's client. */
export const api = new ApiClient();

/** Polls a job with the app's client; see ApiClient.waitForJob. */
export function waitForJob(id: string, onProgress?: (job: Job) => void, opts?: WaitOptions): Promise<Job> {
  return api.waitForJob(id, onProgress, opts);
}
