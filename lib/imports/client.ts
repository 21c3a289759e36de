/** Pure: the tables, their fields and the mapping guess, for the Data settings screen in the browser. */
export { IMPORT_FIELDS, IMPORT_TABLES, missingFields, REQUIRED_FIELDS, type ColumnMapping, type ImportField, type ImportTable } from './fields';
