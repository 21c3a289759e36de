/**
 * Imports: bring your own data. Customers, services, staff and appointments from the CSV exports of
 * other tools (encoding and delimiter sniffed, columns mapped by a guess the owner confirms, every row
 * checked with its reasons, re-imports updating rows by their external id), and the same tables
 * exported as CSV. Owners and admins only. Tables: the planets migration, with external_id from
 * 20261203022000_import_external_ids.sql. How it behaves: docs/data-import.md.
 */
export { ALL_IMPORT_FIELDS, guessMapping, IMPORT_FIELDS, IMPORT_TABLES, missingFields, normalizeHeader, REQUIRED_FIELDS, type ColumnMapping, type ImportField, type ImportTable } from './fields';
export { exportCsv } from './export';
export {
  exportTarget,
  importTarget,
  MAX_ERRORS_LISTED,
  PREVIEW_ROWS,
  previewImport,
  readUpload,
  runImport,
  type ImportPreview,
  type ImportReport,
  type RowError,
  type Upload,
} from './imports';
export { detectDelimiter, detectEncoding, MAX_UPLOAD_BYTES, type FileFormat } from './read';
export { defaultCountry } from './values';
