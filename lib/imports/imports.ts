import 'server-only';
import { z } from 'zod';
import { ApiError, errorMessage, invalidField, managersOnly, notFound, rethrowAsApiError, validate } from '@/lib/api';
import { withUser, type SessionUser, type Tx } from '@/lib/db';
import type { Locale } from '@/lib/i18n';
import { workspaceFor, type Workspace } from '@/lib/workspaces';
import { ALL_IMPORT_FIELDS, guessMapping, IMPORT_FIELDS, IMPORT_TABLES, missingFields, type ColumnMapping, type ImportField, type ImportTable } from './fields';
import { MAX_UPLOAD_BYTES, openCsv, type FileFormat } from './read';
import { IMPORTERS, loadLookups, RowProblems, type ImportContext, type Written } from './tables';
import { CellError, defaultCountry, type Problem } from './values';

/** Records shown in a preview, read and checked as the import would. */
export const PREVIEW_ROWS = 10;
/** Row errors an answer lists (all are counted): enough to fix a file, not a second copy of it. */
export const MAX_ERRORS_LISTED = 500;
/** Rows per INSERT statement: one jsonb parameter each, well inside both drivers' limits. */
const BATCH_ROWS = 1000;

/** What was uploaded: the file's bytes as they arrive, the table, and the mapping when the owner confirmed one. */
export interface Upload {
  table: ImportTable;
  mapping?: ColumnMapping;
  bytes: AsyncIterable<Uint8Array>;
}

export interface RowError {
  /** The row as a spreadsheet numbers it: the header is row 1. */
  line: number;
  problems: Array<{ field: ImportField | null; problem: Problem; message: string }>;
}

interface Checked {
  table: ImportTable;
  format: FileFormat;
  headers: string[];
  mapping: ColumnMapping;
  /** Records read (the header not counted). */
  rows: number;
  errorCount: number;
  errors: RowError[];
}

export interface ImportPreview extends Checked {
  /** Requirements the mapping leaves unmet (a field of each): nothing is checked or imported until they are. */
  missing: ImportField[];
  valid: number;
  sample: Array<{ line: number; cells: string[]; problems: RowError['problems'] }>;
}

export interface ImportReport extends Checked, Written {}

/** Importing and exporting are the business's data in bulk: the owner and admins only. */
export function importTarget(user: SessionUser, workspaceId: string): Promise<Workspace> {
  return workspaceFor(user, workspaceId, { who: 'managers', what: 'importData' });
}

export function exportTarget(user: SessionUser, workspaceId: string): Promise<Workspace> {
  return workspaceFor(user, workspaceId, { who: 'managers', what: 'exportData' });
}

/** Reads and checks the whole file as the import would (references resolved too), writing nothing. */
export function previewImport(user: SessionUser, workspaceId: string, upload: Upload, locale: Locale, now = new Date()): Promise<ImportPreview> {
  return withUser(user, async (tx) => (await run(tx, user, workspaceId, upload, locale, now, 'preview')) as ImportPreview).catch(rethrowAsApiError);
}

/**
 * Imports the rows that can be read and reports the others with their reasons, in one transaction as
 * the person (RLS): a failure on the way (the upload cut off, over the size limit) leaves nothing written.
 */
export function runImport(user: SessionUser, workspaceId: string, upload: Upload, locale: Locale, now = new Date()): Promise<ImportReport> {
  return withUser(user, async (tx) => (await run(tx, user, workspaceId, upload, locale, now, 'import')) as ImportReport).catch(rethrowAsApiError);
}

async function run(tx: Tx, user: SessionUser, workspaceId: string, upload: Upload, locale: Locale, now: Date, mode: 'preview' | 'import') {
  const [workspace] = await tx.query<{ role: string; time_zone: string; locale: string }>(
    `select m.role, w.time_zone, w.locale from public.workspaces w join public.workspace_members m on m.workspace_id = w.id and m.user_id = $2 where w.id = $1`,
    [workspaceId, user.id],
  );
  if (!workspace) throw notFound('workspace');
  if (workspace.role === 'member') throw managersOnly('importData');
  // The appointments' derived statistics once, at commit, rather than per batch (the migration
  // 20261203090000_appointment_stats_at_commit.sql): what commits is the same.
  if (mode === 'import') await tx.query(`select set_config('multiverbe.appointment_stats', 'at_commit', true)`);

  const csv = await openCsv(upload.bytes);
  let completed = false;
  try {
    const mapping = upload.mapping ?? guessMapping(upload.table, csv.headers);
    for (const [field, column] of Object.entries(mapping)) {
      if (column >= csv.headers.length) throw invalidField(`mapping.${field}`, 'api.imports.noSuchColumn', { column: column + 1, columns: csv.headers.length });
    }
    const missing = missingFields(upload.table, mapping);
    const base = { table: upload.table, format: csv.format, headers: csv.headers, mapping };
    if (missing.length && mode === 'preview') {
      const sample: ImportPreview['sample'] = [];
      for await (const record of csv.records) {
        sample.push({ ...record, problems: [] });
        if (sample.length >= PREVIEW_ROWS) break;
      }
      completed = true;
      return { ...base, missing, rows: 0, valid: 0, errorCount: 0, errors: [], sample } satisfies ImportPreview;
    }
    if (missing.length) throw invalidField('mapping', 'api.imports.mappingIncomplete', { field: missing[0]! });

    const importer = IMPORTERS[upload.table];
    const ctx: ImportContext = {
      workspaceId,
      timeZone: workspace.time_zone,
      country: defaultCountry(workspace.time_zone, workspace.locale),
      now,
      mapping,
      lookups: upload.table === 'appointments' ? await loadLookups(tx, workspaceId) : undefined,
    };
    const describe = (problems: RowProblems['problems']): RowError['problems'] =>
      problems.map(({ field, error }) => ({
        field,
        problem: error.problem,
        message: errorMessage(new ApiError('validation_failed', `api.imports.problem.${error.problem}`, error.params), locale),
      }));

    const firstLineOf = new Map<string, number>();
    const sample: ImportPreview['sample'] = [];
    const errors: RowError[] = [];
    let rows = 0;
    let errorCount = 0;
    let batch: Array<Record<string, unknown> & { external_id: string | null }> = [];
    const written: Written = { inserted: 0, updated: 0, unchanged: 0 };
    const flush = async () => {
      if (!batch.length || mode === 'preview') return;
      const { inserted, updated, unchanged } = await importer.write(tx, batch, ctx);
      written.inserted += inserted;
      written.updated += updated;
      written.unchanged += unchanged;
      batch = [];
    };

    for await (const { line, cells } of csv.records) {
      rows += 1;
      let problems: RowError['problems'] = [];
      try {
        const row = importer.convert(cells, ctx);
        if (row.external_id !== null) {
          const first = firstLineOf.get(row.external_id);
          if (first !== undefined) throw new RowProblems([{ field: 'external_id', error: new CellError('duplicate', { line: first }) }]);
          firstLineOf.set(row.external_id, line);
        }
        batch.push(row);
        if (batch.length >= BATCH_ROWS) await flush();
      } catch (error) {
        if (!(error instanceof RowProblems)) throw error;
        errorCount += 1;
        // Sentences only for the rows listed: a file of 50,000 bad rows is counted, not described.
        if (errors.length < MAX_ERRORS_LISTED || (mode === 'preview' && sample.length < PREVIEW_ROWS)) problems = describe(error.problems);
        if (errors.length < MAX_ERRORS_LISTED) errors.push({ line, problems });
      }
      if (mode === 'preview') {
        if (sample.length < PREVIEW_ROWS) sample.push({ line, cells, problems });
        batch = [];
      }
    }
    await flush();
    completed = true;
    const checked = { ...base, rows, errorCount, errors };
    if (mode === 'preview') return { ...checked, missing, valid: rows - errorCount, sample } satisfies ImportPreview;
    return { ...checked, ...written } satisfies ImportReport;
  } finally {
    if (!completed) await csv.close();
  }
}

// Upload parsing ---------------------------------------------------------------------------------------

const tableSchema = z.enum(IMPORT_TABLES, { error: 'api.imports.unknownTable' });
const mappingSchema = z.partialRecord(z.enum(ALL_IMPORT_FIELDS as [ImportField, ...ImportField[]]), z.int().min(0).max(999));

/** The mapping as sent (JSON text in a form field or a query parameter), its fields those of `table`. */
function parseMapping(table: ImportTable, raw: string | null): ColumnMapping | undefined {
  if (raw === null || raw === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalidField('mapping', 'api.imports.mappingNotJson');
  }
  const mapping = validate(z.object({ mapping: mappingSchema }), { mapping: value }).mapping as ColumnMapping;
  const foreign = Object.keys(mapping).find((field) => !(IMPORT_FIELDS[table] as readonly string[]).includes(field));
  if (foreign) throw invalidField(`mapping.${foreign}`, 'api.imports.fieldNotInTable', { field: foreign, table });
  return mapping;
}

/**
 * The upload in a request: `multipart/form-data` with `file`, `table` and optionally `mapping`, or the
 * file itself as the body (text/csv, text/plain, application/octet-stream) with `?table=…&mapping=…`.
 * Over MAX_UPLOAD_BYTES is a 413, told by Content-Length before reading or by counting while reading.
 */
export async function readUpload(req: Request): Promise<Upload> {
  const length = Number(req.headers.get('content-length') ?? 0);
  if (length > MAX_UPLOAD_BYTES) throw tooLarge();
  const type = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const query = new URL(req.url).searchParams;

  if (type === 'multipart/form-data') {
    let form: FormData;
    try {
      const body = await collect(limited(req.body));
      form = await new Response(body, { headers: { 'content-type': req.headers.get('content-type')! } }).formData();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError('bad_request', 'api.imports.badForm');
    }
    const table = validate(z.object({ table: tableSchema }), { table: form.get('table') ?? query.get('table') }).table;
    const file = form.get('file');
    if (!(file instanceof Blob)) throw invalidField('file', 'api.imports.fileRequired');
    const mapping = parseMapping(table, (form.get('mapping') as string | null) ?? query.get('mapping'));
    return { table, mapping, bytes: chunks(file.stream()) };
  }
  if (['text/csv', 'text/plain', 'application/csv', 'application/octet-stream', 'application/vnd.ms-excel'].includes(type)) {
    const table = validate(z.object({ table: tableSchema }), { table: query.get('table') }, 'query').table;
    return { table, mapping: parseMapping(table, query.get('mapping')), bytes: limited(req.body) };
  }
  throw new ApiError('bad_request', 'api.imports.contentType');
}

const tooLarge = () => new ApiError('payload_too_large', 'api.imports.tooLarge', { megabytes: MAX_UPLOAD_BYTES / 1_000_000 });

async function* chunks(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** The body's chunks, refusing the upload once it has passed the limit. */
async function* limited(body: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> {
  if (!body) return;
  let total = 0;
  for await (const chunk of chunks(body)) {
    total += chunk.byteLength;
    if (total > MAX_UPLOAD_BYTES) throw tooLarge();
    yield chunk;
  }
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  for await (const part of source) parts.push(part);
  return new Uint8Array(Buffer.concat(parts));
}
