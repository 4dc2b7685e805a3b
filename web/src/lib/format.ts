/** Small display helpers. */
import recipePhoto from './recipePhoto.json';

export function formatMinutes(min: number | null | undefined): string | null {
  if (min == null || !Number.isFinite(min) || min <= 0) return null;
  const h = Math.floor(min / 60);
  const m = Math.round(min % 60);
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/**
 * A message as a sentence: a capital first letter and a full stop ("the name is taken" → "The name
 * is taken."). Messages from the server are written as clauses, to be composed; the client shows
 * them to people.
 */
export function sentence(message: string): string {
  const t = message.trim();
  if (!t) return t;
  const first = capitalized(t);
  return /[.!?…:)"”’]$/.test(first) ? first : `${first}.`;
}

/** Text with its first letter in capitals ("cookies" → "Cookies"), the rest as written. */
export function capitalized(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

/** "1 serving", "4 servings". */
export function servingsText(n: number): string {
  return `${n} serving${n === 1 ? '' : 's'}`;
}

export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '';
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Offers the browser's save dialog for a blob. */
export function saveBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The widths of the renditions the API names in `imageVariants` (imageproc's sizes: an image
 * narrower than a width keeps its own, so these are upper bounds).
 */
export const variantWidths: Record<string, number> = { thumb: 320, medium: 800 };

/** The sizes a recipe page's photo is shown at (its img and the photo's preloads agree on them). */
export const recipeHeroSizes: string = recipePhoto.sizes;

/** srcset from an image's renditions (`imageVariants`: rendition name → address). */
export function srcSet(variants: Record<string, string> | undefined): string | undefined {
  const known = Object.entries(variants ?? {}).filter(([name]) => name in variantWidths);
  if (known.length === 0) return undefined;
  return known
    .sort(([a], [b]) => variantWidths[a] - variantWidths[b])
    .map(([name, url]) => `${url} ${variantWidths[name]}w`)
    .join(', ');
}
