import 'server-only';
import chardet from 'chardet';
import { CsvError, parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { ApiError } from '@/lib/api';

/**
 * Reading an uploaded CSV file as a stream: the encoding and the delimiter are sniffed from its first
 * 64 KB, then the bytes are decoded and parsed chunk by chunk, so a 50,000-row export is never held as
 * one string or one array of rows.
 */

export const DELIMITERS = [',', ';', '\t'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

/** What the sniffing found: shown in the preview, so the owner sees "Windows-1252, semicolons". */
export interface FileFormat {
  encoding: 'utf-8' | 'windows-1252' | string;
  delimiter: Delimiter;
}

const SAMPLE_BYTES = 64 * 1024;
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * UTF-8 when the file says so (a byte-order mark) or when its sample is valid UTF-8 (ASCII included);
 * otherwise chardet's guess. The 8-bit Latin guesses (ISO-8859-1/-15, Windows-1252) are read as
 * Windows-1252: it is what Excel on Windows writes, and it agrees with Latin-1 on every letter, adding
 * € and the typographic quotes where Latin-1 has control codes.
 */
export function detectEncoding(sample: Uint8Array): FileFormat['encoding'] {
  if (UTF8_BOM.every((byte, i) => sample[i] === byte)) return 'utf-8';
  if (isUtf8(sample)) return 'utf-8';
  const guess = chardet.detect(sample)?.toLowerCase() ?? '';
  if (/^(iso-8859-(1|15)|windows-125[02])$/.test(guess) || !iconv.encodingExists(guess)) return 'windows-1252';
  return guess;
}

/** Valid UTF-8, ignoring a sequence the sample cut in half at its end. */
function isUtf8(sample: Uint8Array): boolean {
  let end = sample.length;
  // Step back over at most three continuation bytes to the last lead byte and drop an unfinished sequence.
  for (let back = 1; back <= 4 && end - back >= 0; back++) {
    const byte = sample[end - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    if (needed > back) end -= back;
    break;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(0, end));
    return true;
  } catch {
    return false;
  }
}

/**
 * The delimiter that splits the first lines into the same number of columns most often, and into more
 * than one: a file of one column has no delimiter to find, and is read as comma-separated.
 */
export function detectDelimiter(text: string): Delimiter {
  const lastNewline = text.lastIndexOf('\n');
  const lines = lastNewline > 0 ? text.slice(0, lastNewline) : text;
  let best: { delimiter: Delimiter; score: number } = { delimiter: ',', score: -1 };
  for (const delimiter of DELIMITERS) {
    let records: string[][];
    try {
      records = parseSync(lines, { delimiter, to_line: 50, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, bom: true });
    } catch {
      continue;
    }
    const columns = records[0]?.length ?? 0;
    if (columns < 2) continue;
    const consistent = records.filter((record) => record.length === columns).length;
    const score = consistent * 1000 + columns;
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

/** The size limit of an upload, under the 10 MiB the session proxy buffers (next.config: proxyClientMaxBodySize). */
export const MAX_UPLOAD_BYTES = 10_000_000;

export interface CsvRecord {
  /** The file's line the record is on (its last, for a quoted cell spanning lines); the header is 1. */
  line: number;
  cells: string[];
}

export interface OpenCsv {
  format: FileFormat;
  headers: string[];
  records: AsyncIterable<CsvRecord>;
  /** Stops reading (a caller that will not iterate `records` to the end, or at all). */
  close: () => Promise<void>;
}

/** Turns a byte stream into the file's format, its header and its records, reading on demand. */
export async function openCsv(bytes: AsyncIterable<Uint8Array>): Promise<OpenCsv> {
  const iterator = bytes[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let done = false;
  while (headBytes < SAMPLE_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    headBytes += next.value.byteLength;
  }
  const sample = concat(head).subarray(0, SAMPLE_BYTES);
  const encoding = detectEncoding(sample);
  const decoder = iconv.getDecoder(encoding, { stripBOM: true });
  const firstText = decoder.write(Buffer.from(concat(head)));
  const delimiter = detectDelimiter(firstText);

  const parser = parse({ delimiter, relax_column_count: true, skip_empty_lines: true, skip_records_with_empty_values: true, trim: true, info: true });
  let stopped = false;
  // Feeding runs alongside the reading below, waiting for 'drain' when the parser's buffer is full; a
  // reader that stops early (the preview) closes the parser, which ends the wait and the feeding.
  const feed = (async () => {
    const write = (text: string) =>
      text && !parser.write(text)
        ? new Promise<void>((resolve) => {
            parser.once('drain', resolve);
            parser.once('close', resolve);
          })
        : undefined;
    try {
      await write(firstText);
      while (!done && !stopped) {
        const next = await iterator.next();
        if (next.done) break;
        await write(decoder.write(Buffer.from(next.value)));
      }
      if (stopped) return void (await iterator.return?.());
      await write(decoder.end() ?? '');
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();

  const rows = (parser as AsyncIterable<{ record: string[]; info: { lines: number } }>)[Symbol.asyncIterator]();
  const first = await rows.next().catch(async (error) => {
    await close();
    return rethrowParseError(error);
  });
  if (first.done) {
    await close();
    throw new ApiError('validation_failed', 'api.imports.empty');
  }
  const headers = first.value.record;

  // Rows are numbered as a spreadsheet shows them, by the file's line (empty lines skipped still count):
  // the header is row 1. A quoted cell spanning lines gives its record the number of its last line.
  async function* records(): AsyncIterable<CsvRecord> {
    try {
      while (true) {
        const next = await rows.next().catch(rethrowParseError);
        if (next.done) break;
        yield { line: next.value.info.lines, cells: next.value.record };
      }
    } finally {
      await close();
    }
  }
  async function close() {
    stopped = true;
    parser.destroy();
    await feed;
  }
  return { format: { encoding, delimiter }, headers, records: records(), close };
}

function rethrowParseError(error: unknown): never {
  if (error instanceof ApiError) throw error;
  // Every error csv-parse raises for what the file holds is a CsvError, whatever its code: not only the
  // `CSV_…` ones but also `INVALID_OPENING_QUOTE` (a quote inside an unquoted cell, as JSON has).
  if (error instanceof CsvError) throw new ApiError('validation_failed', 'api.imports.unreadable', { line: (error as { lines?: number }).lines ?? 0 });
  throw error;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
