import { describe, expect, it } from 'vitest';
import { fieldMessage } from './formErrors';

describe('fieldMessage', () => {
  const base = { local: {}, server: {}, draft: { title: '', servings: '4' }, refused: null };
  it('shows a rule of the client while it is broken, and not once it holds', () => {
    expect(fieldMessage('title', { ...base, local: { title: 'Give the recipe a title.' } })).toBe('Give the recipe a title.');
    expect(fieldMessage('title', { ...base, draft: { title: 'Soup', servings: '4' } })).toBeUndefined();
  });
  it('shows the server message while the refused value is still there', () => {
    const refused = { title: 'x'.repeat(300), servings: '4' };
    const server = { title: 'Must be at most 200 characters.' };
    expect(fieldMessage('title', { ...base, server, draft: refused, refused })).toBe('Must be at most 200 characters.');
    expect(fieldMessage('title', { ...base, server, draft: { ...refused, title: 'Soup' }, refused })).toBeUndefined();
    // A field the draft does not name (a whole list) keeps its message until the next save.
    expect(fieldMessage('ingredientSections', { ...base, server: { ingredientSections: 'Too many.' }, refused })).toBe('Too many.');
  });
});
