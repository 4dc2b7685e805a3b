/**
 * Shopping list API calls, the list's offline queue and its live updates.
 *
 * Offline: check-offs and new items made without network are kept in localStorage
 * (one queue per list) with the time they were made, shown at once, and sent in order
 * to POST /api/shopping-lists/:id/changes when the network is back. The server applies
 * them under its conflict rule (last write per item wins by that time; a deleted item
 * stays deleted), so the queue itself never resolves conflicts. The last list read is
 * kept too, so the page opens without network.
 *
 * Live: GET /api/shopping-lists/:id/events is a server-sent event stream, read with
 * fetch (EventSource cannot send the Authorization header). Every event means "read
 * the list again". When the stream cannot be had, the list is polled until it can.
 */
import { api, ApiError, type Share } from './api';
import { formFor, type WordForms } from './scaling';

export type UnitSystem = 'metric' | 'us' | 'as_written';

export interface ItemSource {
  recipeId: string | null;
  recipeTitle: string;
  servings: number | null;
  line: string;
  quantity: number | null;
  unit: string;
}

export interface ShoppingItem {
  id: string;
  text: string;
  food: string;
  quantity: number | null;
  unit: string;
  checked: boolean;
  aisle: string;
  position: number;
  changedAt: string;
  deleted: boolean;
  sources: ItemSource[];
  /** The unit's two forms (absent for one with a single form, "tbsp", "ml"). */
  unitForms?: { one: string; other: string };
  /** The word of text that agrees with quantity, given by the server for an English name. */
  word?: WordForms;
}

export interface ShoppingList {
  id: string;
  ownerId: string;
  name: string;
  unitSystem: UnitSystem;
  members: Share[];
  itemCount: number;
  checkedCount: number;
  aisles: string[];
  items?: ShoppingItem[];
  createdAt: string;
  updatedAt: string;
}

export type ChangeResult = 'applied' | 'stale' | 'deleted';

/** A change made on this device, as POST /changes takes it. */
export interface QueuedChange {
  op: 'add' | 'update' | 'delete';
  id: string;
  text?: string;
  checked?: boolean;
  at: string;
}

const path = (id: string) => `/api/shopping-lists/${encodeURIComponent(id)}`;

export const shoppingApi = {
  lists: (signal?: AbortSignal) => api.request<{ items: ShoppingList[] }>('GET', '/api/shopping-lists', { signal }),
  get: (id: string, signal?: AbortSignal) => api.request<ShoppingList>('GET', path(id), { signal }),
  create: (name: string, unitSystem: UnitSystem) => api.request<ShoppingList>('POST', '/api/shopping-lists', { body: { name, unitSystem } }),
  update: (id: string, body: { name?: string; unitSystem?: UnitSystem }) => api.request<ShoppingList>('PATCH', path(id), { body }),
  remove: (id: string) => api.request<void>('DELETE', path(id)),
  share: (id: string, email: string) => api.request<ShoppingList>('POST', `${path(id)}/members`, { body: { email } }),
  unshare: (id: string, userId: string) => api.request<void>('DELETE', `${path(id)}/members/${encodeURIComponent(userId)}`),
  addRecipe: (id: string, recipeId: string, servings?: number | null) =>
    api.request<ShoppingList>('POST', `${path(id)}/recipes`, { body: { recipeId, servings: servings ?? undefined } }),
  removeRecipe: (id: string, recipeId: string) => api.request<ShoppingList>('DELETE', `${path(id)}/recipes/${encodeURIComponent(recipeId)}`),
  addPlan: (id: string, from: string, to: string, planId?: string) =>
    api.request<ShoppingList>('POST', `${path(id)}/plan`, { body: { from, to, planId: planId || undefined } }),
  updateItem: (id: string, itemId: string, body: { text?: string; checked?: boolean; aisle?: string; at?: string }) =>
    api.request<{ result: ChangeResult; item: ShoppingItem }>('PATCH', `${path(id)}/items/${encodeURIComponent(itemId)}`, { body }),
  deleteItem: (id: string, itemId: string) => api.request<void>('DELETE', `${path(id)}/items/${encodeURIComponent(itemId)}`),
  reorder: (id: string, ids: string[]) => api.request<ShoppingList>('POST', `${path(id)}/reorder`, { body: { ids } }),
  clearChecked: (id: string) => api.request<ShoppingList>('POST', `${path(id)}/clear-checked`),
  changes: (id: string, changes: QueuedChange[]) =>
    api.request<{ results: { id: string; result: ChangeResult }[]; list: ShoppingList }>('POST', `${path(id)}/changes`, { body: { changes } }),
};

// ---- amounts and aisles

/**
 * "440 ml", "1.8 cups", "3" — the item's amount as the server computed it, its unit in the form that
 * agrees with it (the server gives the unit's forms; a unit without them reads as its key).
 */
export function formatAmount(quantity: number | null, unit: string, unitForms?: { one: string; other: string }): string {
  if (quantity === null) return '';
  const n = Number.isInteger(quantity) ? String(quantity) : String(Number(quantity.toFixed(2)));
  if (!unit) return n;
  return `${n} ${unitForms ? formFor(unitForms, quantity) : unit}`;
}

/**
 * The item's name as it reads after its amount. An item keeps the spelling of the first line it was
 * made from, but its amount is the sum of all of them (or a scaled one): a count without a unit
 * writes the word the server marked (item.word) in the form that agrees with the total ("1 onion" +
 * "1 onion" → "2 onions", "2 eggs" halved → "1 egg"). Other items read as written.
 */
export function itemText(item: Pick<ShoppingItem, 'text' | 'quantity' | 'unit' | 'word'>): string {
  const { text, quantity, unit, word } = item;
  if (quantity === null || unit !== '' || !word || word.end > text.length || word.start > word.end) return text;
  return text.slice(0, word.start) + formFor(word, quantity) + text.slice(word.end);
}

/** Items grouped by aisle in the shop's order (the list's aisles), each by position. */
export function groupByAisle(items: ShoppingItem[], aisles: string[]): { aisle: string; items: ShoppingItem[] }[] {
  const rank = (a: string) => {
    const i = aisles.indexOf(a);
    return i < 0 ? aisles.length : i;
  };
  const groups = new Map<string, ShoppingItem[]>();
  for (const it of items) {
    if (it.deleted) continue;
    const g = groups.get(it.aisle) ?? [];
    g.push(it);
    groups.set(it.aisle, g);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([aisle, list]) => ({ aisle, items: list.sort((a, b) => Number(a.checked) - Number(b.checked) || a.position - b.position) }));
}

// ---- offline queue

/** Where the queue and the last list read are kept: localStorage, or a stand-in in tests. */
export interface KeyValue {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export class OfflineQueue {
  constructor(
    private readonly listId: string,
    private readonly store: KeyValue = localStorage,
  ) {}

  private get key() {
    return `larder.shopping.queue.${this.listId}`;
  }

  private get listKey() {
    return `larder.shopping.list.${this.listId}`;
  }

  load(): QueuedChange[] {
    try {
      const v = JSON.parse(this.store.getItem(this.key) ?? '[]');
      return Array.isArray(v) ? (v as QueuedChange[]) : [];
    } catch {
      return [];
    }
  }

  push(change: QueuedChange) {
    const q = this.load();
    q.push(change);
    this.store.setItem(this.key, JSON.stringify(q));
  }

  /** Drops the first n changes (those the server has answered). */
  drop(n: number) {
    const q = this.load().slice(n);
    if (q.length) this.store.setItem(this.key, JSON.stringify(q));
    else this.store.removeItem(this.key);
  }

  get size() {
    return this.load().length;
  }

  saveList(list: ShoppingList) {
    try {
      this.store.setItem(this.listKey, JSON.stringify(list));
    } catch {
      // Storage full: the page still works while it stays open.
    }
  }

  lastList(): ShoppingList | null {
    try {
      const v = this.store.getItem(this.listKey);
      return v ? (JSON.parse(v) as ShoppingList) : null;
    } catch {
      return null;
    }
  }

  /**
   * Sends the queued changes. Resolves to the list as the server now has it, or null when
   * there was nothing to send. A network failure leaves the queue as it was.
   */
  async flush(): Promise<ShoppingList | null> {
    const q = this.load();
    if (!q.length) return null;
    const answer = await shoppingApi.changes(this.listId, q);
    this.drop(q.length);
    this.saveList(answer.list);
    return answer.list;
  }
}

/**
 * The list as this device shows it: the last list read with the queued changes applied
 * (each as the server would if it wins; the server's answer corrects the rest).
 */
export function withQueued(list: ShoppingList, queue: QueuedChange[]): ShoppingList {
  let items = [...(list.items ?? [])];
  for (const ch of queue) {
    const i = items.findIndex((it) => it.id === ch.id);
    if (ch.op === 'add' && i < 0) {
      items.push({
        id: ch.id,
        text: ch.text ?? '',
        food: '',
        quantity: null,
        unit: '',
        checked: ch.checked ?? false,
        aisle: 'other',
        position: items.length ? Math.max(...items.map((x) => x.position)) + 1 : 0,
        changedAt: ch.at,
        deleted: false,
        sources: [],
      });
    } else if (i >= 0 && ch.op === 'update') {
      items[i] = { ...items[i], ...(ch.checked !== undefined ? { checked: ch.checked } : {}), ...(ch.text ? { text: ch.text } : {}) };
    } else if (i >= 0 && ch.op === 'delete') {
      items = items.filter((it) => it.id !== ch.id);
    }
  }
  return { ...list, items };
}

/** A network failure (as opposed to an answer from the server). */
export function isOffline(e: unknown): boolean {
  return !(e instanceof ApiError) || e.status === 0;
}

// ---- live updates

/** The event name of one server-sent event block ("event: change\ndata: …"), "message" without one. */
export function sseEventName(block: string): string | null {
  let name = 'message';
  let any = false;
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || line === '') continue;
    any = true;
    if (line.startsWith('event:')) name = line.slice(6).trim();
  }
  return any ? name : null;
}

export interface FollowOptions {
  /** Polling interval when the stream is unavailable (ms). */
  pollMs?: number;
  fetch?: typeof fetch;
}

/**
 * Calls onChange whenever the list changes on another device, until the returned
 * function is called. Reconnects after a second when a stream ends (the server ends each one when
 * the token that opened it expires), with a pause that grows with each failed attempt in a row
 * otherwise; polls while disconnected.
 */
export function followList(listId: string, onChange: () => void, onLive?: (live: boolean) => void, opts: FollowOptions = {}): () => void {
  const doFetch = opts.fetch ?? ((i: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(i, init));
  const pollMs = opts.pollMs ?? 15000;
  let stopped = false;
  let ctrl: AbortController | null = null;
  let poll: ReturnType<typeof setInterval> | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  const startPolling = () => {
    onLive?.(false);
    if (!poll) poll = setInterval(onChange, pollMs);
  };
  const stopPolling = () => {
    if (poll) clearInterval(poll);
    poll = null;
  };
  // attempt counts connections (a "ready" after the first means changes may have been missed);
  // failures counts the attempts in a row that did not open a stream.
  const connect = async (attempt: number, failures: number) => {
    ctrl = new AbortController();
    let opened = false;
    try {
      let res = await doFetch(`${path(listId)}/events`, {
        headers: { Accept: 'text/event-stream', Authorization: `Bearer ${api.accessToken ?? ''}` },
        signal: ctrl.signal,
      });
      if (res.status === 401 && (await api.refresh())) {
        res = await doFetch(`${path(listId)}/events`, {
          headers: { Accept: 'text/event-stream', Authorization: `Bearer ${api.accessToken ?? ''}` },
          signal: ctrl.signal,
        });
      }
      if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
      opened = true;
      stopPolling();
      onLive?.(true);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value.replace(/\r\n?/g, '\n');
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const name = sseEventName(buf.slice(0, i));
          buf = buf.slice(i + 2);
          // "ready" after a reconnection also means: changes may have been missed.
          if (name === 'change' || name === 'resync' || (name === 'ready' && attempt > 0)) onChange();
        }
      }
    } catch {
      // Offline, server restarting, or no live updates there: poll meanwhile.
    }
    if (stopped) return;
    startPolling();
    const failed = opened ? 0 : failures + 1;
    const pause = opened ? 1000 : Math.min(30000, 1000 * 2 ** Math.min(failed - 1, 5));
    retry = setTimeout(() => void connect(attempt + 1, failed), pause);
  };
  void connect(0, 0);
  return () => {
    stopped = true;
    ctrl?.abort();
    stopPolling();
    if (retry) clearTimeout(retry);
  };
}
