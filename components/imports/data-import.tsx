'use client';

import { useMutation } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { ApiRequestError, errorText } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClass } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { SelectField } from '@/components/ui/field';
import type { Wire } from '@/lib/api';
import { IMPORT_FIELDS, IMPORT_TABLES, missingFields, type ColumnMapping, type ImportField, type ImportTable } from '@/lib/imports/client';
import { useI18n } from '@/lib/i18n/client';

/** The answers of the import API as they arrive (camelCase; mapping keys are field names, kept as sent). */
type RowProblem = { field: ImportField | null; problem: string; message: string };
type RowError = { line: number; problems: RowProblem[] };
interface Checked {
  table: ImportTable;
  format: { encoding: string; delimiter: string };
  headers: string[];
  mapping: ColumnMapping;
  rows: number;
  errorCount: number;
  errors: RowError[];
}
interface Preview extends Checked {
  missing: ImportField[];
  valid: number;
  sample: Array<{ line: number; cells: string[]; problems: RowProblem[] }>;
}
interface Report extends Checked {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** POSTs the file as multipart/form-data and unwraps the envelope, as `api` does for JSON. */
async function upload<T>(workspaceId: string, path: string, table: ImportTable, file: File, mapping?: ColumnMapping): Promise<T> {
  const body = new FormData();
  body.set('table', table);
  body.set('file', file);
  if (mapping) body.set('mapping', JSON.stringify(mapping));
  let response: Response;
  try {
    response = await fetch(`/api/workspaces/${workspaceId}/${path}`, { method: 'POST', body, credentials: 'same-origin' });
  } catch {
    throw new ApiRequestError(0, 'network', '');
  }
  const envelope = (await response.json().catch(() => null)) as { success: boolean; data: Wire<T>; error: { code: string; message: string } | null } | null;
  if (response.ok && envelope?.success) return envelope.data as T;
  throw new ApiRequestError(response.status, envelope?.error?.code ?? 'internal', envelope?.error?.message ?? '');
}

const count = (n: number, locale: string) => n.toLocaleString(locale);

const DELIMITER_KEYS = { ',': 'dataImport.delimiter.comma', ';': 'dataImport.delimiter.semicolon', '\t': 'dataImport.delimiter.tab' } as const;

/**
 * Settings → Data, import: choose the table and the file, see the guessed mapping and the first rows
 * checked as the import would check them, change the mapping, import, and read what was not imported
 * and why, row by row.
 */
export function DataImport({ workspaceId }: { workspaceId: string }) {
  const { t, locale } = useI18n();
  const fileRef = useRef<HTMLInputElement>(null);
  const [table, setTable] = useState<ImportTable>('customers');
  const [file, setFile] = useState<File | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const preview = useMutation({
    mutationFn: (input: { file: File; mapping?: ColumnMapping }) => upload<Preview>(workspaceId, 'imports/preview', table, input.file, input.mapping),
    onSuccess: (data) => setMapping(data.mapping),
  });
  const run = useMutation({ mutationFn: () => upload<Report>(workspaceId, 'imports', table, file!, mapping) });
  const shown = preview.data;
  const changed = shown && JSON.stringify(shown.mapping) !== JSON.stringify(mapping);
  const missing = shown ? missingFields(shown.table, mapping) : [];
  const fieldLabel = (field: ImportField | null) => (field ? t(`dataImport.field.${field}`) : '');

  function check(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!file) return;
    run.reset();
    preview.mutate({ file });
  }

  function reset(nextTable: ImportTable) {
    setTable(nextTable);
    setMapping({});
    preview.reset();
    run.reset();
  }

  return (
    <Card>
      <CardTitle>{t('dataImport.importTitle')}</CardTitle>
      <p className="mt-1 mb-4 text-[0.9375rem] text-pretty text-muted">{t('dataImport.importLead')}</p>
      <form onSubmit={check} noValidate className="flex flex-col gap-4">
        <SelectField
          id="import-table"
          label={t('dataImport.table')}
          value={table}
          onChange={(e) => reset(e.target.value as ImportTable)}
          options={IMPORT_TABLES.map((value) => ({ value, label: t(`dataImport.table.${value}`) }))}
          hint={t(`dataImport.tableHint.${table}`)}
        />
        <div className="flex flex-col gap-1.5">
          <label htmlFor="import-file" className="text-sm font-semibold">
            {t('dataImport.file')}
          </label>
          <input
            ref={fileRef}
            id="import-file"
            name="file"
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            aria-describedby="import-file-hint"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setMapping({});
              preview.reset();
              run.reset();
            }}
            className="min-h-11 w-full rounded-xl border border-line-strong bg-surface px-3 py-2 text-base file:mr-3 file:rounded-lg file:border-0 file:bg-subtle file:px-3 file:py-1.5 file:font-semibold"
          />
          <p id="import-file-hint" className="text-sm text-muted">
            {t('dataImport.fileHint')}
          </p>
        </div>
        {preview.isError && <Alert tone="error">{errorText(preview.error, t)}</Alert>}
        <Button type="submit" disabled={!file} pending={preview.isPending} pendingLabel={t('dataImport.checking')} className="self-start">
          {t('dataImport.check')}
        </Button>
      </form>

      {shown && (
        <div className="mt-6 flex flex-col gap-6">
          <p className="text-[0.9375rem] text-muted">
            {t('dataImport.format', { encoding: shown.format.encoding.toUpperCase(), delimiter: t(DELIMITER_KEYS[shown.format.delimiter as keyof typeof DELIMITER_KEYS] ?? 'dataImport.delimiter.comma') })}
          </p>

          <section aria-labelledby="import-mapping" className="flex flex-col gap-3">
            <h3 id="import-mapping" className="font-semibold">
              {t('dataImport.mappingTitle')}
            </h3>
            <p className="text-sm text-pretty text-muted">{t('dataImport.mappingLead')}</p>
            <div className="grid gap-3 sm:grid-cols-2">
              {(IMPORT_FIELDS[shown.table] as readonly ImportField[]).map((field) => (
                <SelectField
                  key={field}
                  id={`map-${field}`}
                  label={fieldLabel(field)}
                  value={mapping[field] === undefined ? '' : String(mapping[field])}
                  onChange={(e) => {
                    const next = { ...mapping };
                    if (e.target.value === '') delete next[field];
                    else next[field] = Number(e.target.value);
                    setMapping(next);
                  }}
                  options={[{ value: '', label: t('dataImport.notImported') }, ...shown.headers.map((header, i) => ({ value: String(i), label: header || t('dataImport.column', { n: i + 1 }) }))]}
                />
              ))}
            </div>
            {missing.length > 0 && <Alert tone="error">{t('dataImport.missing', { fields: missing.map(fieldLabel).join(', ') })}</Alert>}
            {changed && missing.length === 0 && (
              <Button variant="secondary" className="self-start" pending={preview.isPending} pendingLabel={t('dataImport.checking')} onClick={() => file && preview.mutate({ file, mapping })}>
                {t('dataImport.checkAgain')}
              </Button>
            )}
          </section>

          {shown.missing.length === 0 && !changed && (
            <>
              <section aria-labelledby="import-preview" className="flex flex-col gap-3">
                <h3 id="import-preview" className="font-semibold">
                  {t('dataImport.previewTitle', { n: shown.sample.length })}
                </h3>
                <p className="text-[0.9375rem]">
                  {t('dataImport.summary', { rows: count(shown.rows, locale), valid: count(shown.valid, locale), errors: count(shown.errorCount, locale) })}
                </p>
                <ul className="flex flex-col gap-2">
                  {shown.sample.map((row) => (
                    <li key={row.line} className={`rounded-xl border px-4 py-3 ${row.problems.length ? 'border-danger/40' : 'border-line'}`}>
                      <p className="text-sm font-semibold text-muted">{t('dataImport.row', { n: row.line })}</p>
                      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
                        {(IMPORT_FIELDS[shown.table] as readonly ImportField[])
                          .filter((field) => mapping[field] !== undefined)
                          .map((field) => (
                            <div key={field} className="contents">
                              <dt className="text-muted">{fieldLabel(field)}</dt>
                              <dd className="break-words">{row.cells[mapping[field]!] ?? ''}</dd>
                            </div>
                          ))}
                      </dl>
                      <Problems problems={row.problems} label={fieldLabel} />
                    </li>
                  ))}
                </ul>
              </section>
              {!run.data && (
                <div className="flex flex-col gap-3">
                  {run.isError && <Alert tone="error">{errorText(run.error, t)}</Alert>}
                  <Button className="self-start" disabled={shown.valid === 0 || missing.length > 0} pending={run.isPending} pendingLabel={t('dataImport.importing')} onClick={() => run.mutate()}>
                    {t('dataImport.import', { n: count(shown.valid, locale) })}
                  </Button>
                </div>
              )}
              {!run.data && shown.errorCount > 0 && <ErrorReport errors={shown.errors} total={shown.errorCount} label={fieldLabel} title={t('dataImport.willSkip')} />}
            </>
          )}

          {run.data && (
            <section aria-labelledby="import-result" className="flex flex-col gap-3">
              <h3 id="import-result" className="font-semibold">
                {t('dataImport.resultTitle')}
              </h3>
              <Alert tone="success">
                {t(run.data.unchanged > 0 ? 'dataImport.resultWithUnchanged' : 'dataImport.result', {
                  inserted: count(run.data.inserted, locale),
                  updated: count(run.data.updated, locale),
                  unchanged: count(run.data.unchanged, locale),
                  table: t(`dataImport.table.${run.data.table}`),
                })}
              </Alert>
              {run.data.errorCount > 0 && <ErrorReport errors={run.data.errors} total={run.data.errorCount} label={fieldLabel} title={t('dataImport.skippedTitle')} />}
              <Button
                variant="secondary"
                className="self-start"
                onClick={() => {
                  if (fileRef.current) fileRef.current.value = '';
                  setFile(null);
                  reset(table);
                }}
              >
                {t('dataImport.another')}
              </Button>
            </section>
          )}
        </div>
      )}
    </Card>
  );
}

function Problems({ problems, label }: { problems: RowProblem[]; label: (field: ImportField | null) => string }) {
  if (!problems.length) return null;
  return (
    <ul className="mt-2 flex flex-col gap-0.5 text-sm font-medium text-danger">
      {problems.map((p, i) => (
        <li key={i}>{p.field ? `${label(p.field)}: ${p.message}` : p.message}</li>
      ))}
    </ul>
  );
}

/** Every row that is (or was) left out, with its reasons: the per-row error report. */
function ErrorReport({ errors, total, label, title }: { errors: RowError[]; total: number; label: (field: ImportField | null) => string; title: string }) {
  const { t, locale } = useI18n();
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h4 id={id} className="font-semibold">
        {title} ({count(total, locale)})
      </h4>
      <ul className="flex flex-col gap-2" data-testid="import-errors">
        {errors.map((error) => (
          <li key={error.line} className="rounded-xl border border-danger/40 px-4 py-3">
            <p className="text-sm font-semibold">{t('dataImport.row', { n: error.line })}</p>
            <Problems problems={error.problems} label={label} />
          </li>
        ))}
      </ul>
      {total > errors.length && <p className="text-sm text-muted">{t('dataImport.moreErrors', { n: count(total - errors.length, locale) })}</p>}
    </section>
  );
}

/** Settings → Data, export: one download per table, as CSV an import reads back. */
export function DataExport({ workspaceId }: { workspaceId: string }) {
  const { t } = useI18n();
  return (
    <Card>
      <CardTitle>{t('dataImport.exportTitle')}</CardTitle>
      <p className="mt-1 mb-4 text-[0.9375rem] text-pretty text-muted">{t('dataImport.exportLead')}</p>
      <ul className="flex flex-wrap gap-2">
        {IMPORT_TABLES.map((table) => (
          <li key={table}>
            <a href={`/api/workspaces/${workspaceId}/exports/${table}`} download className={buttonClass('secondary')}>
              {t(`dataImport.export.${table}`)}
            </a>
          </li>
        ))}
      </ul>
    </Card>
  );
}
