import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it as test } from 'vitest';
import { en } from '@/lib/i18n/messages/en';
import { it } from '@/lib/i18n/messages/it';
import { ApiError, conflict, errorMessage, forbidden, invalidField, notFound, unauthorized, type ApiMessageKey, type ManagersOnly } from '@/lib/api';

const ROOT = path.resolve(import.meta.dirname, '../..');
const API_KEYS = Object.keys(en).filter((key): key is ApiMessageKey => key.startsWith('api.'));

/** The server's source: what builds ApiErrors and the schemas whose messages the API renders. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}
const SOURCES = ['lib', 'app', 'server', 'inngest', 'components']
  .flatMap((dir) => sourceFiles(path.join(ROOT, dir)))
  .filter((file) => !file.includes(`${path.sep}i18n${path.sep}messages${path.sep}`))
  .map((file) => ({ file: path.relative(ROOT, file), text: readFileSync(file, 'utf8') }));

/**
 * The string and template literals in the arguments of each call that `opening` (a pattern ending at the
 * call's `(`) starts. Comments and regular expression literals are skipped, so a quote inside them is not
 * taken for a string.
 */
function literalsOfCalls(text: string, opening: RegExp): string[] {
  const literals: string[] = [];
  for (const match of text.matchAll(opening)) {
    let depth = 1;
    let i = match.index + match[0].length;
    while (depth > 0 && i < text.length) {
      const c = text[i]!;
      if (text.startsWith('//', i)) {
        i = text.indexOf('\n', i) === -1 ? text.length : text.indexOf('\n', i) + 1;
        continue;
      }
      if (c === "'" || c === '"' || c === '`') {
        const from = ++i;
        while (i < text.length && text[i] !== c) i += text[i] === '\\' ? 2 : 1;
        literals.push(text.slice(from, i));
      } else if (c === '/' && /[(,=:[!&|?{};]\s*$/.test(text.slice(Math.max(0, i - 20), i))) {
        // A regular expression literal: up to its closing slash, outside a character class.
        let inClass = false;
        for (i++; i < text.length && (inClass || text[i] !== '/'); i += text[i] === '\\' ? 2 : 1) {
          if (text[i] === '[') inClass = true;
          else if (text[i] === ']') inClass = false;
        }
      } else if (c === '(') depth++;
      else if (c === ')') depth--;
      i++;
    }
  }
  return literals;
}

/** Keys and error codes never hold a space; a sentence does (and a word: `', '` joins values). */
const isSentence = (literal: string) => /\s/.test(literal) && /[A-Za-z]/.test(literal);

describe('every API error message', () => {
  test('has an English and an Italian text, and the Italian is a translation', () => {
    expect(API_KEYS.length).toBeGreaterThan(200);
    const missing = API_KEYS.filter((key) => !en[key]?.trim() || !it[key]?.trim());
    const untranslated = API_KEYS.filter((key) => en[key] === it[key]);
    expect({ missing, untranslated }).toEqual({ missing: [], untranslated: [] });
  });

  test('that the code names is in both dictionaries', () => {
    const named: { file: string; key: string }[] = [];
    for (const { file, text } of SOURCES) {
      for (const [, key] of text.matchAll(/['"`](api\.[A-Za-z0-9_.]+?)(?:\$\{|['"`])/g)) named.push({ file, key: key! });
      // The helpers that finish a key: notFound('workspace') says api.notFound.workspace.
      for (const [, helper, name] of text.matchAll(/\b(notFound|managersOnly|ownerOnly)\(\s*'([A-Za-z]+)'/g)) named.push({ file, key: `api.${helper}.${name}` });
      for (const [, who, name] of text.matchAll(/\bwho: '(managers|owner)', what: '([A-Za-z]+)'/g)) named.push({ file, key: `api.${who === 'owner' ? 'ownerOnly' : 'managersOnly'}.${name}` });
      for (const [, name] of text.matchAll(/\brequireManager\([^)]*'([A-Za-z]+)'\)/g)) named.push({ file, key: `api.managersOnly.${name}` });
    }
    const unknown = named.filter(({ key }) =>
      key.endsWith('.') ? !API_KEYS.some((k) => k.startsWith(key)) || !Object.keys(it).some((k) => k.startsWith(key)) : !(key in en) || !(key in it),
    );
    expect(named.length).toBeGreaterThan(200);
    expect(unknown).toEqual([]);
  });
});

describe('no API error is built from a sentence instead of a key', () => {
  test('by the type: a sentence where a key belongs does not compile', () => {
    expectTypeOf<'That already exists.'>().not.toExtend<ApiMessageKey>();
    expectTypeOf<ConstructorParameters<typeof ApiError>[1]>().toEqualTypeOf<ApiMessageKey>();
    expectTypeOf<Parameters<typeof conflict>[0]>().toEqualTypeOf<ApiMessageKey>();
    expectTypeOf<Parameters<typeof invalidField>[1]>().toEqualTypeOf<ApiMessageKey>();
    expectTypeOf<Parameters<typeof forbidden>[0]>().toEqualTypeOf<ApiMessageKey | undefined>();
    expectTypeOf<Parameters<typeof unauthorized>[0]>().toEqualTypeOf<ApiMessageKey | undefined>();
    expectTypeOf<'This workspace'>().not.toExtend<Parameters<typeof notFound>[0]>();
    expectTypeOf<'manage routines'>().not.toExtend<ManagersOnly>();
  });

  test('in the source: no error helper and no schema of the API is given a sentence (lib/, app/, server/, inngest/)', () => {
    const raw: string[] = [];
    const errorCall = /\b(?:new ApiError|notFound|forbidden|managersOnly|ownerOnly|unauthorized|conflict|invalidField)\(/g;
    // zod's checks with a message of their own, and the issues a refinement adds.
    const schemaCall = /\.(?:min|max|length|regex|email|url|uuid|int|positive|nonnegative|gt|gte|lt|lte|refine|datetime)\(|\baddIssue\(|\biso\.\w+\(/g;
    // Not rendered by the API: MCP's tool schemas (the MCP SDK reports them to programs itself) and the
    // start-up settings (read by whoever runs the server).
    const EXEMPT = ['lib/mcp/server.ts', 'lib/config/index.ts'];
    for (const { file, text } of SOURCES) {
      if (file.startsWith('components/') || EXEMPT.includes(file)) continue;
      for (const literal of [...literalsOfCalls(text, errorCall), ...literalsOfCalls(text, schemaCall)]) {
        if (isSentence(literal)) raw.push(`${file}: ${literal}`);
      }
    }
    expect(raw).toEqual([]);
  });
});

describe('errorMessage', () => {
  test('renders an error’s sentence in the language asked; its message stays English', () => {
    const error = conflict('api.topics.nameTaken', { name: 'coding' });
    expect([error.message, errorMessage(error, 'en'), errorMessage(error, 'it')]).toEqual([
      'A topic named "coding" already exists.',
      'A topic named "coding" already exists.',
      'Esiste già un argomento chiamato "coding".',
    ]);
  });
});
