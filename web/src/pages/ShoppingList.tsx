import '../planner.css';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { errorMessage } from '../lib/api';
import { useAuth } from '../lib/auth';
import { useTitle } from '../lib/hooks';
import {
  OfflineQueue,
  followList,
  formatAmount,
  itemText,
  groupByAisle,
  isOffline,
  shoppingApi,
  withQueued,
  type QueuedChange,
  type ShoppingItem,
  type ShoppingList as List,
  type UnitSystem,
} from '../lib/shopping';
import { ErrorView, PageSkeleton } from '../components/ui';
import { addDays, storedPlanId, today, weekStart } from '../lib/mealplan';
import { SYSTEM_LABEL } from './ShoppingLists';

/**
 * A shopping list, grouped by aisle. Works offline once loaded: changes go to the
 * list's queue (lib/shopping.ts) and are sent when the network is back; another
 * device's changes arrive through the list's event stream.
 */
export default function ShoppingListPage() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const navigate = useNavigate();
  const queue = useMemo(() => new OfflineQueue(id), [id]);
  const [list, setList] = useState<List | null>(() => queue.lastList());
  const [pending, setPending] = useState(() => queue.size);
  const [error, setError] = useState<unknown>(null);
  const [live, setLive] = useState(false);
  const [online, setOnline] = useState(() => navigator.onLine);
  const [actionError, setActionError] = useState('');
  useTitle(list?.name ?? 'Shopping list');
  const flushing = useRef(false);
  const again = useRef(false);

  const show = useCallback(
    (l: List) => {
      queue.saveList(l);
      setList(l);
      setPending(queue.size);
    },
    [queue],
  );

  /** Sends the queue, then reads the list; offline, keeps what is shown. */
  const sync = useCallback(async () => {
    if (flushing.current) {
      again.current = true; // a change came in meanwhile: sync once more afterwards
      return;
    }
    flushing.current = true;
    try {
      const flushed = await queue.flush();
      show(flushed ?? (await shoppingApi.get(id)));
      setError(null);
    } catch (e) {
      if (!isOffline(e)) {
        // The server refused the queue (the list was deleted or unshared): it never will
        // take it, so it is dropped rather than retried forever.
        queue.drop(queue.size);
        setError(e);
      }
    } finally {
      flushing.current = false;
      setPending(queue.size);
    }
    if (again.current) {
      again.current = false;
      void sync();
    }
  }, [id, queue, show]);

  useEffect(() => {
    void sync();
    const stop = followList(id, () => void sync(), setLive);
    const up = () => {
      setOnline(true);
      void sync();
    };
    const down = () => setOnline(false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    return () => {
      stop();
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
    };
  }, [id, sync]);

  /** Applies a change here at once and sends it (or queues it when offline). */
  const change = async (ch: Omit<QueuedChange, 'at'>) => {
    const full: QueuedChange = { ...ch, at: new Date().toISOString() };
    queue.push(full);
    setPending(queue.size);
    setList((l) => (l ? withQueued(l, [full]) : l));
    if (navigator.onLine) await sync();
  };

  const act = async (fn: () => Promise<List | void>) => {
    setActionError('');
    try {
      const l = await fn();
      if (l) show(l);
      else await sync();
    } catch (e) {
      setActionError(errorMessage(e));
    }
  };

  if (!list && error) return <ErrorView error={error} retry={() => void sync()} />;
  if (!list) return <PageSkeleton />;
  const shown = withQueued(list, queue.load());
  const groups = groupByAisle(shown.items ?? [], list.aisles);
  const owner = list.ownerId === user?.id;
  const checked = (shown.items ?? []).filter((i) => i.checked).length;

  return (
    <div className="shopping">
      <div className="page-head">
        <h1 data-testid="list-name">{list.name}</h1>
        <div className="actions no-print">
          <button type="button" className="secondary" onClick={() => window.print()}>
            Print
          </button>
          <button type="button" className="secondary" disabled={checked === 0} onClick={() => act(() => shoppingApi.clearChecked(id))} data-testid="clear-checked">
            Clear checked ({checked})
          </button>
        </div>
      </div>
      <p className="muted small no-print" role="status" data-testid="sync-status">
        {!online ? `Offline · ${pending} change${pending === 1 ? '' : 's'} will sync` : pending > 0 ? 'Syncing…' : live ? 'Live' : 'Up to date'}
      </p>
      {actionError && <p className="field-error">{actionError}</p>}
      <AddItem onAdd={(text) => change({ op: 'add', id: crypto.randomUUID(), text })} />
      <AddPlanDays onAdd={(from, to) => act(() => shoppingApi.addPlan(id, from, to, storedPlanId() || undefined))} />
      {groups.length === 0 && <p className="empty">Nothing to buy. Add items, a recipe, or your meal plan.</p>}
      {groups.map((g) => (
        <section key={g.aisle} className="aisle" data-aisle={g.aisle}>
          <h2 className="aisle-name">{g.aisle}</h2>
          <ul className="items">
            {g.items.map((it) => (
              <ItemRow
                key={it.id}
                item={it}
                aisles={list.aisles}
                onCheck={(v) => change({ op: 'update', id: it.id, checked: v })}
                onDelete={() => change({ op: 'delete', id: it.id })}
                onEdit={(text) => change({ op: 'update', id: it.id, text })}
                onAisle={(aisle) => act(async () => void (await shoppingApi.updateItem(id, it.id, { aisle })))}
                onRemoveRecipe={(recipeId) => act(() => shoppingApi.removeRecipe(id, recipeId))}
                onMove={(dir) => {
                  const ids = g.items.map((x) => x.id);
                  const i = ids.indexOf(it.id);
                  const j = i + dir;
                  if (j < 0 || j >= ids.length) return;
                  [ids[i], ids[j]] = [ids[j], ids[i]];
                  void act(() => shoppingApi.reorder(id, ids));
                }}
              />
            ))}
          </ul>
        </section>
      ))}
      <details className="list-settings no-print">
        <summary>List settings</summary>
        <ListSettings list={list} owner={owner} act={act} onDeleted={() => navigate('/shopping')} />
      </details>
      <p className="no-print">
        <Link to="/shopping">All lists</Link>
      </p>
    </div>
  );
}

/** The meal plan's recipes of some days (this week by default), merged into the list. */
function AddPlanDays({ onAdd }: { onAdd: (from: string, to: string) => Promise<void> }) {
  const start = weekStart(today());
  const [from, setFrom] = useState(start);
  const [to, setTo] = useState(addDays(start, 6));
  const [busy, setBusy] = useState(false);
  return (
    <details className="add-plan no-print">
      <summary>Add recipes from the meal plan</summary>
      <form
        className="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          await onAdd(from, to);
          setBusy(false);
        }}
      >
        <label>
          From <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} required />
        </label>
        <label>
          to <input type="date" value={to} onChange={(e) => setTo(e.target.value)} required />
        </label>
        <button type="submit" disabled={busy}>
          Add
        </button>
      </form>
    </details>
  );
}

function AddItem({ onAdd }: { onAdd: (text: string) => void }) {
  const [text, setText] = useState('');
  return (
    <form
      className="inline-form add-item no-print"
      onSubmit={(e) => {
        e.preventDefault();
        if (!text.trim()) return;
        onAdd(text.trim());
        setText('');
      }}
    >
      <input value={text} onChange={(e) => setText(e.target.value)} placeholder="Add an item (2 l milk)" aria-label="New item" maxLength={500} data-testid="new-item" />
      <button type="submit" data-testid="new-item-submit">
        Add
      </button>
    </form>
  );
}

function ItemRow(props: {
  item: ShoppingItem;
  aisles: string[];
  onCheck: (checked: boolean) => void;
  onDelete: () => void;
  onEdit: (text: string) => void;
  onAisle: (aisle: string) => void;
  onRemoveRecipe: (recipeId: string) => void;
  onMove: (dir: -1 | 1) => void;
}) {
  const { item } = props;
  const amount = formatAmount(item.quantity, item.unit, item.unitForms);
  const recipes = item.sources.filter((s) => s.recipeId);
  return (
    <li className={`item${item.checked ? ' checked' : ''}`} data-testid="shopping-item" data-item-id={item.id} data-checked={item.checked}>
      <label className="item-main">
        <input type="checkbox" checked={item.checked} onChange={(e) => props.onCheck(e.target.checked)} data-testid="item-check" />
        <span className="item-text">
          {amount && <strong className="item-amount">{amount} </strong>}
          <span data-testid="item-text">{itemText(item)}</span>
        </span>
      </label>
      <details className="item-details no-print">
        <summary aria-label={`Details of ${itemText(item)}`}>{recipes.length > 0 ? `${recipes.length} recipe${recipes.length === 1 ? '' : 's'}` : '⋯'}</summary>
        <ul className="sources" data-testid="item-sources">
          {item.sources.map((s, i) => (
            <li key={i}>
              {s.line}
              {s.recipeId ? (
                <>
                  {' — '}
                  <Link to={`/recipes/${s.recipeId}`}>{s.recipeTitle}</Link>
                  {s.servings ? ` (${s.servings} servings)` : ''}{' '}
                  <button type="button" className="link-button" onClick={() => props.onRemoveRecipe(s.recipeId!)}>
                    remove recipe
                  </button>
                </>
              ) : (
                <span className="muted"> (added by hand)</span>
              )}
            </li>
          ))}
        </ul>
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            const text = String(new FormData(e.currentTarget).get('text') ?? '').trim();
            if (text && text !== item.text) props.onEdit(text);
          }}
        >
          <input name="text" defaultValue={item.text} aria-label="Item" maxLength={500} />
          <button type="submit" className="secondary small-button">
            Rename
          </button>
        </form>
        <label>
          Aisle{' '}
          <select value={item.aisle} onChange={(e) => props.onAisle(e.target.value)}>
            {props.aisles.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>{' '}
        <button type="button" className="secondary small-button" onClick={() => props.onMove(-1)} aria-label="Move up">
          ↑
        </button>
        <button type="button" className="secondary small-button" onClick={() => props.onMove(1)} aria-label="Move down">
          ↓
        </button>
        <button type="button" className="secondary small-button danger-text" onClick={props.onDelete}>
          Delete
        </button>
      </details>
    </li>
  );
}

function ListSettings({ list, owner, act, onDeleted }: { list: List; owner: boolean; act: (fn: () => Promise<List | void>) => Promise<void>; onDeleted: () => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState(list.name);
  if (!owner) {
    return <p className="muted small">Shared with you. Only the list's owner changes its settings.</p>;
  }
  return (
    <div className="stack">
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void act(() => shoppingApi.update(list.id, { name: name.trim() }));
        }}
      >
        <input value={name} onChange={(e) => setName(e.target.value)} aria-label="Name" maxLength={500} />
        <button type="submit">Rename</button>
      </form>
      <label>
        Units{' '}
        <select value={list.unitSystem} onChange={(e) => act(() => shoppingApi.update(list.id, { unitSystem: e.target.value as UnitSystem }))} data-testid="list-units">
          {Object.entries(SYSTEM_LABEL).map(([k, v]) => (
            <option key={k} value={k}>
              {v}
            </option>
          ))}
        </select>
      </label>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void act(async () => {
            const l = await shoppingApi.share(list.id, email.trim());
            setEmail('');
            return l;
          });
        }}
      >
        <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="email" aria-label="Share with" data-testid="list-share-email" />
        <button type="submit" disabled={!email.trim()} data-testid="list-share-submit">
          Share
        </button>
      </form>
      <ul>
        {list.members.map((m) => (
          <li key={m.userId}>
            {m.email}{' '}
            <button type="button" className="link-button" onClick={() => act(() => shoppingApi.unshare(list.id, m.userId))}>
              stop sharing
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="secondary danger-text"
        onClick={() =>
          act(async () => {
            await shoppingApi.remove(list.id);
            onDeleted();
          })
        }
      >
        Delete this list
      </button>
    </div>
  );
}
