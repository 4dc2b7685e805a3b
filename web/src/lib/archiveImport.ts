/**
 * Importing a whole collection exported from another recipe app
 * (POST /api/recipes/import/archive) and reading its job: the detected format and
 * "n of m" while it runs (job.detail), the per-recipe result when it is done.
 * The server detects the format and decides every outcome; this module only names
 * and summarizes what it reports.
 */
import { api, type Job, type UploadOptions, type Visibility } from './api';

export type ArchiveFormat = 'mealie' | 'mealie_backup' | 'tandoor' | 'paprika' | 'nextcloud' | 'schema_org';

/** How each format the server detects is named to people. */
export const FORMAT_LABELS: Record<ArchiveFormat, string> = {
  mealie: 'Mealie recipe export',
  mealie_backup: 'Mealie backup',
  tandoor: 'Tandoor export',
  paprika: 'Paprika export',
  nextcloud: 'Nextcloud Cookbook',
  schema_org: 'schema.org recipes (JSON)',
};

export function formatLabel(format: string | undefined | null): string {
  if (!format) return '';
  return FORMAT_LABELS[format as ArchiveFormat] ?? format;
}

/** The detail of a running recipe_archive_import job. */
export interface ArchiveProgress {
  format: string;
  done: number;
  total: number;
}

export type ArchiveRecipeStatus = 'created' | 'skipped' | 'failed';

export interface ArchiveRecipeResult {
  entry: string;
  title?: string;
  status: ArchiveRecipeStatus;
  recipeId?: string;
  reason?: string;
  unmapped?: string[];
  warning?: string;
}

/** The result of a finished recipe_archive_import job. */
export interface ArchiveImportResult {
  fileName: string;
  format: string;
  total: number;
  created: number;
  skipped: number;
  failed: number;
  recipes: ArchiveRecipeResult[];
  unmapped: string[];
}

/** Uploads the export (the format is detected by the server) and returns the queued job. */
export async function startArchiveImport(file: Blob, visibility: Visibility, opts: UploadOptions = {}): Promise<Job> {
  const res = await api.upload<{ job: Job }>('/api/recipes/import/archive', 'file', file, {
    ...opts,
    query: { ...opts.query, visibility },
  });
  return res.job;
}

/** The job's progress detail, when it reports one. */
export function archiveProgress(job: Job | null): ArchiveProgress | null {
  const d = (job as (Job & { detail?: unknown }) | null)?.detail as Partial<ArchiveProgress> | undefined;
  if (!d || typeof d.format !== 'string' || typeof d.done !== 'number' || typeof d.total !== 'number') return null;
  return { format: d.format, done: d.done, total: d.total };
}

/** "12 of 40 recipes"; "" before the job has counted them. */
export function progressText(p: ArchiveProgress | null): string {
  if (!p) return '';
  return `${p.done} of ${p.total} ${p.total === 1 ? 'recipe' : 'recipes'}`;
}

/** The fraction for a progress bar: n of m, or null (indeterminate) before counting. */
export function progressFraction(p: ArchiveProgress | null): number | null {
  if (!p) return null;
  if (p.total === 0) return 1;
  return p.done / p.total;
}

/** The finished job's result, or null when the job has none (yet). */
export function archiveResult(job: Job | null): ArchiveImportResult | null {
  const r = job?.result as Partial<ArchiveImportResult> | null | undefined;
  if (!r || !Array.isArray(r.recipes)) return null;
  return {
    fileName: r.fileName ?? '',
    format: r.format ?? '',
    total: r.total ?? r.recipes.length,
    created: r.created ?? 0,
    skipped: r.skipped ?? 0,
    failed: r.failed ?? 0,
    recipes: r.recipes,
    unmapped: r.unmapped ?? [],
  };
}

/** One line for the outcome: "38 created, 1 skipped as duplicate, 1 failed". */
export function resultSummary(r: ArchiveImportResult): string {
  const parts = [`${r.created} created`];
  if (r.skipped) parts.push(`${r.skipped} skipped as ${r.skipped === 1 ? 'duplicate' : 'duplicates'}`);
  if (r.failed) parts.push(`${r.failed} failed`);
  return parts.join(', ');
}

/** The recipes of a result with the given status, in the archive's order. */
export function withStatus(r: ArchiveImportResult, status: ArchiveRecipeStatus): ArchiveRecipeResult[] {
  return r.recipes.filter((x) => x.status === status);
}
