import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** What a benchmark's default export returns: a title, rows to print as a table, and notes under it. */
export interface BenchResult {
  title: string;
  rows: Array<Record<string, string | number>>;
  notes?: string[];
  /** Further tables, each with its own columns, printed after the first. */
  tables?: Array<{ title: string; rows: Array<Record<string, string | number>>; notes?: string[] }>;
}

export type Bench = () => Promise<BenchResult>;

/**
 * `npm run bench [name…]`: runs bench/<name>/bench.ts (every one when no name is given), one after
 * another so they do not compete for the two cores, and prints what each returns.
 */
async function main() {
  const dir = import.meta.dirname;
  const available = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, 'bench.ts')))
    .map((entry) => entry.name)
    .sort();
  const requested = process.argv.slice(2);
  const unknown = requested.filter((name) => !available.includes(name));
  if (unknown.length) {
    console.error(`No benchmark named ${unknown.join(', ')}. Available: ${available.join(', ')}`);
    process.exit(2);
  }
  for (const name of requested.length ? requested : available) {
    console.log(`\n== ${name}`);
    const { default: bench } = (await import(pathToFileURL(path.join(dir, name, 'bench.ts')).href)) as { default: Bench };
    const result = await bench();
    for (const table of [result, ...(result.tables ?? [])]) {
      console.log(table.title);
      printTable(table.rows);
      for (const note of table.notes ?? []) console.log(note);
    }
  }
}

function printTable(rows: BenchResult['rows']) {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const cells = [columns, ...rows.map((row) => columns.map((c) => String(row[c] ?? '')))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  for (const [n, line] of cells.entries()) {
    console.log(line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
    if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

await main();
