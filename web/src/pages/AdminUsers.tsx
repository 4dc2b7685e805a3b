import { useEffect, useState } from 'react';
import { api, type Role, type User } from '../lib/api';
import { useAuth } from '../lib/auth';
import { formatDate } from '../lib/format';
import { useTitle } from '../lib/hooks';
import { ErrorView, FormError } from '../components/ui';

export default function AdminUsers() {
  useTitle('Users');
  const { user: me } = useAuth();
  const [users, setUsers] = useState<User[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [total, setTotal] = useState<number | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const load = async (next: string | null) => {
    setLoading(true);
    setLoadError(null);
    try {
      const p = await api.listUsers({ cursor: next, limit: 50 });
      setUsers((prev) => (next ? [...prev, ...p.items] : p.items));
      setCursor(p.nextCursor);
      setTotal(p.total);
    } catch (e) {
      setLoadError(e);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    void load(null);
  }, []);

  const setRole = async (u: User, role: Role) => {
    setSaving(u.id);
    setError(null);
    setStatus(null);
    try {
      const saved = await api.setUserRole(u.id, role);
      setUsers((list) => list.map((x) => (x.id === u.id ? { ...x, ...saved, role: saved?.role ?? role } : x)));
      setStatus(`${u.email} is now ${role === 'ADMIN' ? 'an admin' : 'a user'}.`);
    } catch (e) {
      setError(e);
    } finally {
      setSaving(null);
    }
  };

  return (
    <div className="stack">
      <div className="page-head">
        <h1>Users</h1>
        <span className="muted">{total != null && `${total} in all`}</span>
      </div>
      <FormError error={error} />
      <p className="visually-hidden" role="status">
        {status}
      </p>
      {status && <p className="alert alert-ok">{status}</p>}
      {loadError != null && <ErrorView error={loadError} retry={() => load(null)} />}
      <div className="table-wrap">
        <table className="table cards" data-testid="users-table">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Verified</th>
              <th scope="col">Sign-in</th>
              <th scope="col">Joined</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id} data-testid="user-row" data-email={u.email}>
                <td data-label="Email">{u.email}</td>
                <td data-label="Name">{u.name}</td>
                <td>
                  <label className="visually-hidden" htmlFor={`role-${u.id}`}>
                    Role of {u.email}
                  </label>
                  <select
                    id={`role-${u.id}`}
                    value={u.role}
                    disabled={saving === u.id || u.id === me?.id}
                    title={u.id === me?.id ? 'You cannot change your own role.' : undefined}
                    onChange={(e) => setRole(u, e.target.value as Role)}
                    data-testid="user-role-select"
                  >
                    <option value="USER">User</option>
                    <option value="ADMIN">Admin</option>
                  </select>
                </td>
                <td data-label="Verified">{u.emailVerified ? 'Yes' : 'No'}</td>
                <td data-label="Sign-in">{u.provider}</td>
                <td data-label="Joined">{formatDate(u.createdAt)}</td>
              </tr>
            ))}
            {loading &&
              Array.from({ length: users.length ? 2 : 5 }, (_, i) => (
                <tr key={`sk${i}`} aria-hidden="true">
                  <td colSpan={6}>
                    <div className="skeleton sk-line" />
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
      {cursor && !loading && (
        <div className="center">
          <button type="button" className="secondary" onClick={() => load(cursor)}>
            Show more
          </button>
        </div>
      )}
    </div>
  );
}
