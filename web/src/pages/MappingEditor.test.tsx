// @vitest-environment jsdom
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, type Job, type Mapping, type Recipe } from '../lib/api';
import { allByTestId, byTestId, click, render, type Rendered, act } from '../test/render';
import MappingEditor from './MappingEditor';

const recipe = {
  id: 'r1', ownerId: 'u1', title: 'Soup', description: '', servings: 2, prepMinutes: null, cookMinutes: null, totalMinutes: null,
  sourceUrl: null, imageUrl: null, imageVariants: {}, visibility: 'PRIVATE', categories: [], tags: [],
  createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
  ingredientSections: [{ name: '', ingredients: [{ id: 'i1', text: '2 leeks' }, { id: 'i2', text: '1 potato' }] }],
  instructionSections: [{ name: '', steps: [{ id: 's1', text: 'Cook the leeks and the potato.' }] }],
} as unknown as Recipe;

let r: Rendered | null = null;
afterEach(() => {
  r?.unmount();
  r = null;
  vi.restoreAllMocks();
});

const flush = () =>
  act(async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  });

describe('MappingEditor', () => {
  it('shows the regenerated ticks at once, even when there are as many as before', async () => {
    const before: Mapping[] = [{ ingredientId: 'i1', stepId: 's1' }];
    const after: Mapping[] = [{ ingredientId: 'i2', stepId: 's1' }];
    vi.spyOn(api, 'getRecipe').mockResolvedValue(recipe);
    const getMappings = vi.spyOn(api, 'getMappings').mockResolvedValue(before);
    vi.spyOn(api, 'regenerateMappings').mockImplementation(async () => {
      getMappings.mockResolvedValue(after);
      return { id: 'j1', state: 'queued' } as Job;
    });
    vi.spyOn(api, 'waitForJob').mockResolvedValue({ id: 'j1', state: 'completed' } as Job);
    const router = createMemoryRouter([{ path: '/recipes/:id/mappings', element: <MappingEditor /> }], {
      initialEntries: ['/recipes/r1/mappings'],
    });
    r = render(<RouterProvider router={router} />);
    await flush();
    const ticked = () => allByTestId(r!.container, 'mapping-checkbox').map((c) => (c as HTMLInputElement).checked);
    expect(ticked()).toEqual([true, false]);
    click(byTestId(r.container, 'mapping-regenerate'));
    await flush();
    expect(byTestId(r.container, 'mapping-status').textContent).toBe('Regenerated.');
    expect(ticked()).toEqual([false, true]);
    // What came back counts as saved: nothing to save, nothing to warn about.
    expect((byTestId(r.container, 'mapping-save') as HTMLButtonElement).disabled).toBe(true);
  });
});
