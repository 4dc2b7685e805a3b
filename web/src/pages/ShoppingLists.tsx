import '../planner.css';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../lib/api';
import { useAsync, useTitle } from '../lib/hooks';
import { shoppingApi, type UnitSystem } from '../lib/shopping';
import { ErrorView, PageSkeleton } from '../components/ui';

export const SYSTEM_LABEL: Record<UnitSystem, string> = { as_written: 'As written', metric: 'Metric', us: 'US' };

export default function ShoppingLists() {
  useTitle('Shopping lists');
  const navigate = useNavigate();
  const { data, error, loading, reload } = useAsync((s) => shoppingApi.lists(s), []);
  const [name, setName] = useState('');
  const [system, setSystem] = useState<UnitSystem>('as_written');
  const [createError, setCreateError] = useState('');
  if (loading && !data) return <PageSkeleton />;
  if (error || !data) return <ErrorView error={error} retry={reload} />;
  return (
    <div>
      <div className="page-head">
        <h1>Shopping lists</h1>
      </div>
      {data.items.length === 0 ? (
        <p className="empty">No lists yet. Make one below, or build one from your meal plan.</p>
      ) : (
        <ul className="list-rows" data-testid="shopping-lists">
          {data.items.map((l) => (
            <li key={l.id}>
              <Link to={`/shopping/${l.id}`} data-testid="shopping-list-link">
                {l.name}
              </Link>{' '}
              <span className="muted small">
                {l.itemCount - l.checkedCount} to buy · {l.checkedCount} checked
                {l.members.length > 0 ? ` · shared with ${l.members.map((m) => m.email).join(', ')}` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      <form
        className="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          try {
            const l = await shoppingApi.create(name.trim(), system);
            navigate(`/shopping/${l.id}`);
          } catch (err) {
            setCreateError(errorMessage(err));
          }
        }}
      >
        <label>
          New list <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={500} data-testid="new-list-name" />
        </label>
        <label>
          Units{' '}
          <select value={system} onChange={(e) => setSystem(e.target.value as UnitSystem)}>
            {Object.entries(SYSTEM_LABEL).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" data-testid="new-list-submit">
          Create
        </button>
        {createError && <p className="field-error">{createError}</p>}
      </form>
    </div>
  );
}
