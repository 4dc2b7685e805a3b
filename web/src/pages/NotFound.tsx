import { Link } from 'react-router';
import { useTitle } from '../lib/hooks';

export default function NotFound() {
  useTitle('Not found');
  return (
    <div className="empty">
      <h1>Page not found</h1>
      <p>
        <Link to="/recipes">Go to recipes</Link>
      </p>
    </div>
  );
}
