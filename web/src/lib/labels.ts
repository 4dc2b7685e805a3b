import type { TagCount } from './api';

/**
 * The options of a category or tag menu: the server's list (what the viewer may read, with
 * counts), plus the selected name when the list lacks it (a link to a filter the viewer cannot
 * see any recipe of), so the select still shows what filters the page. Names match without
 * regard to case, as the server's filters do.
 */
export function withSelected(items: TagCount[], selected: string): TagCount[] {
  if (!selected || items.some((t) => t.name.toLowerCase() === selected.toLowerCase())) return items;
  return [{ name: selected, count: 0 }, ...items];
}

/** "Soup (3)"; a name nothing readable carries shows bare. */
export function labelWithCount(t: TagCount): string {
  return t.count > 0 ? `${t.name} (${t.count})` : t.name;
}
