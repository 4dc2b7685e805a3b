import { Link } from 'react-router';
import type { Cookbook } from '../lib/api';
import { RecipeImage } from './RecipeImage';

export function CookbookCard({ cookbook }: { cookbook: Cookbook }) {
  return (
    <li className="card" data-testid="cookbook-card" data-cookbook-id={cookbook.id}>
      <Link to={`/cookbooks/${cookbook.id}`} className="card-link">
        <RecipeImage src={cookbook.imageUrl} variants={cookbook.imageVariants} alt="" ratio="3 / 2" />
        <div className="card-body">
          <h3 className="card-title">{cookbook.name}</h3>
          {cookbook.tags.length > 0 && <p className="muted small">{cookbook.tags.map((t) => `#${t}`).join(' ')}</p>}
        </div>
      </Link>
    </li>
  );
}
