import { describe, expect, it, vi } from 'vitest';
import { api } from './api';
import { followList, formatAmount, groupByAisle, itemText, OfflineQueue, sseEventName, withQueued, type KeyValue, type ShoppingItem, type ShoppingList } from './shopping';

const item = (over: Partial<ShoppingItem>): ShoppingItem => ({
  id: 'i',
  text: 'milk',
  food: 'milk',
  quantity: null,
  unit: '',
  checked: false,
  aisle: 'dairy',
  position: 0,
  changedAt: '2026-03-02T10:00:00Z',
  deleted: false,
  sources: [],
  ...over,
});

const list = (items: ShoppingItem[]): ShoppingList => ({
  id: 'l',
  ownerId: 'o',
  name: 'Week',
  unitSystem: 'metric',
  members: [],
  itemCount: items.length,
  checkedCount: 0,
  aisles: ['produce', 'dairy', 'other'],
  items,
  createdAt: '',
  updatedAt: '',
});

function memory(): KeyValue {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
}

describe('groupByAisle', () => {
  it('follows the shop order, checked items last in their aisle', () => {
    const g = groupByAisle(
      [
        item({ id: 'a', aisle: 'other' }),
        item({ id: 'b', aisle: 'dairy', position: 2 }),
        item({ id: 'c', aisle: 'produce' }),
        item({ id: 'd', aisle: 'dairy', position: 1, checked: true }),
        item({ id: 'e', aisle: 'dairy', deleted: true }),
      ],
      ['produce', 'dairy', 'other'],
    );
    expect(g.map((x) => x.aisle)).toEqual(['produce', 'dairy', 'other']);
    expect(g[1].items.map((x) => x.id)).toEqual(['b', 'd']);
  });
});

describe('formatAmount', () => {
  it('prints what the server computed', () => {
    expect(formatAmount(440, 'ml')).toBe('440 ml');
    expect(formatAmount(1.8, 'cup', { one: 'cup', other: 'cups' })).toBe('1.8 cups');
    expect(formatAmount(3, '')).toBe('3');
    expect(formatAmount(null, '')).toBe('');
  });

  it('writes the unit in the form the server gives for the quantity: plural above 1 only', () => {
    expect(formatAmount(2, 'clove', { one: 'clove', other: 'cloves' })).toBe('2 cloves');
    expect(formatAmount(1, 'cup', { one: 'cup', other: 'cups' })).toBe('1 cup');
    expect(formatAmount(0.5, 'cup', { one: 'cup', other: 'cups' })).toBe('0.5 cup');
    expect(formatAmount(3, 'tbsp')).toBe('3 tbsp');
  });
});

describe('itemText', () => {
  // The server sums the sources, keeps the first line's spelling as the item's text, and marks the
  // word that agrees with the total.
  const w = (start: number, end: number, one: string, other: string) => ({ start, end, one, other });
  it('writes the marked word in the form for the merged or scaled total', () => {
    expect(itemText(item({ text: 'onion', quantity: 2, word: w(0, 5, 'onion', 'onions') }))).toBe('onions'); // "1 onion" + "1 onion"
    expect(itemText(item({ text: 'eggs', quantity: 1, word: w(0, 4, 'egg', 'eggs') }))).toBe('egg'); // "2 eggs" at half the servings
    expect(itemText(item({ text: 'red onions', quantity: 1, word: w(4, 10, 'onion', 'onions') }))).toBe('red onion');
    expect(itemText(item({ text: 'loaf brioche bread', quantity: 2, word: w(0, 4, 'loaf', 'loaves') }))).toBe('loaves brioche bread');
    expect(itemText(item({ text: 'potatoes', quantity: 0.5, word: w(0, 8, 'potato', 'potatoes') }))).toBe('potato');
  });

  it('leaves names without a marked word, without a count or with a unit as written', () => {
    expect(itemText(item({ text: 'eggs', quantity: 6, word: w(0, 4, 'egg', 'eggs') }))).toBe('eggs');
    expect(itemText(item({ text: 'garlic', quantity: 3, unit: 'clove' }))).toBe('garlic');
    expect(itemText(item({ text: 'onion', quantity: null, word: w(0, 5, 'onion', 'onions') }))).toBe('onion');
    expect(itemText(item({ text: 'kohlrabi', quantity: 2 }))).toBe('kohlrabi');
    expect(itemText(item({ text: 'ui', quantity: 2 }))).toBe('ui');
  });
});

describe('offline queue', () => {
  it('keeps changes in order until the server has answered them', () => {
    const store = memory();
    const q = new OfflineQueue('l', store);
    q.push({ op: 'update', id: 'a', checked: true, at: '2026-03-02T10:00:00Z' });
    q.push({ op: 'add', id: 'n', text: 'bread', at: '2026-03-02T10:01:00Z' });
    expect(new OfflineQueue('l', store).load().map((c) => c.id)).toEqual(['a', 'n']);
    expect(new OfflineQueue('other', store).size).toBe(0);
    q.drop(1);
    expect(q.load().map((c) => c.id)).toEqual(['n']);
    q.drop(1);
    expect(q.size).toBe(0);
  });
  it('shows queued changes over the last list read', () => {
    const shown = withQueued(list([item({ id: 'a' }), item({ id: 'b', text: 'eggs' })]), [
      { op: 'update', id: 'a', checked: true, at: 't' },
      { op: 'delete', id: 'b', at: 't' },
      { op: 'add', id: 'n', text: 'bread', at: 't' },
    ]);
    expect(shown.items?.map((i) => [i.id, i.checked])).toEqual([
      ['a', true],
      ['n', false],
    ]);
  });
});

describe('sseEventName', () => {
  it('reads event blocks and skips comments', () => {
    expect(sseEventName('event: change\ndata: {"listId":"l"}')).toBe('change');
    expect(sseEventName('data: x')).toBe('message');
    expect(sseEventName(': ping')).toBe(null);
    expect(sseEventName('retry: 2000')).toBe('message');
  });
});

describe('followList', () => {
  const streamOf = (chunks: string[]) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const ch of chunks) c.enqueue(new TextEncoder().encode(ch));
        // Left open, like a live stream.
      },
    });

  it('calls back on change and resync events, not on ready or comments', async () => {
    let calls = 0;
    const fetch = (async () =>
      new Response(streamOf(['retry: 2000\n\nevent: ready\ndata: {}\n\n', ': ping\n\n', 'event: change\ndata: {"listId":"l"}\n\nevent: res', 'ync\ndata: {}\n\n']), {
        status: 200,
        headers: { 'Content-Type': 'text/event-stream' },
      })) as typeof globalThis.fetch;
    const live: boolean[] = [];
    const stop = followList('l', () => calls++, (v) => live.push(v), { fetch });
    await vi.waitFor(() => expect(calls).toBe(2));
    expect(live).toEqual([true]);
    stop();
  });

  it('reconnects with a fresh token when the server ends the stream at its expiry', async () => {
    vi.useFakeTimers();
    let token = 'old';
    const tokenSpy = vi.spyOn(api, 'accessToken', 'get').mockImplementation(() => token);
    const refreshSpy = vi.spyOn(api, 'refresh').mockImplementation(async () => {
      token = 'fresh';
      return true;
    });
    const sent: string[] = [];
    const fetch = (async (_: RequestInfo | URL, init?: RequestInit) => {
      const auth = new Headers(init?.headers).get('Authorization') ?? '';
      sent.push(auth);
      if (sent.length === 1) {
        // The server ends the stream when the token that opened it expires.
        return new Response('event: ready\ndata: {}\n\n', { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
      }
      if (auth !== 'Bearer fresh') return new Response('{"error":{"code":"unauthenticated","message":"expired"}}', { status: 401 });
      return new Response(streamOf(['event: ready\ndata: {}\n\n']), { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
    }) as typeof globalThis.fetch;
    let calls = 0;
    const live: boolean[] = [];
    const stop = followList('l', () => calls++, (v) => live.push(v), { fetch, pollMs: 60000 });
    await vi.advanceTimersByTimeAsync(1500);
    expect(sent).toEqual(['Bearer old', 'Bearer old', 'Bearer fresh']);
    // Live again, and the list is read again for what changed in between.
    expect(live).toEqual([true, false, true]);
    expect(calls).toBe(1);
    stop();
    tokenSpy.mockRestore();
    refreshSpy.mockRestore();
    vi.useRealTimers();
  });

  it('waits a second again after a stream that opened, however many came before', async () => {
    vi.useFakeTimers();
    // Six streams that open and end (six tokens expiring), then the server is briefly away.
    const times: number[] = [];
    const fetch = (async () => {
      times.push(Date.now());
      if (times.length <= 6) return new Response('event: ready\ndata: {}\n\n', { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
      return new Response('{"error":{"code":"unavailable","message":"off"}}', { status: 503 });
    }) as typeof globalThis.fetch;
    const stop = followList('l', () => {}, undefined, { fetch, pollMs: 60000 });
    await vi.advanceTimersByTimeAsync(9500);
    const pauses = times.slice(1).map((t, i) => t - times[i]);
    // A second after each stream; then 1, 2 s after the failures, not the 32 s six attempts would give.
    expect(pauses).toEqual([1000, 1000, 1000, 1000, 1000, 1000, 1000, 2000]);
    stop();
    vi.useRealTimers();
  });

  it('polls while the stream is unavailable', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const fetch = (async () => new Response('{"error":{"code":"unavailable","message":"off"}}', { status: 503 })) as typeof globalThis.fetch;
    const live: boolean[] = [];
    const stop = followList('l', () => calls++, (v) => live.push(v), { fetch, pollMs: 1000 });
    await vi.advanceTimersByTimeAsync(3500);
    expect(live[0]).toBe(false);
    expect(calls).toBe(3);
    stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toBe(3);
    vi.useRealTimers();
  });
});
