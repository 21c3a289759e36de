import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it as test, vi } from 'vitest';
import { topicApi } from '@/components/topics/client';
import { createTranslator } from '@/lib/i18n';
import { en } from '@/lib/i18n/messages/en';
import { api, errorText, fieldErrorsOf } from './client';

/**
 * The interface shows an API failure in the words the server sent, already in the reader's language:
 * it never reads the error again in its own dictionary. Its own words are only for when the server
 * could not be reached or said nothing.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const english = createTranslator(en, 'en');
const italianRefusal = {
  success: false,
  data: null,
  error: {
    code: 'validation_failed',
    message: 'Il corpo della richiesta non è valido (email: Inserisci un indirizzo email valido).',
    details: { fieldErrors: { email: ['Inserisci un indirizzo email valido'] } },
  },
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('errorText and fieldErrorsOf', () => {
  test('show the server’s sentence and field errors as they came, whatever dictionary the interface holds', async () => {
    vi.stubGlobal('fetch', async () => Response.json(italianRefusal, { status: 422 }));
    const error = await api('/api/auth/sign-up', { body: { email: 'x' } }).catch((e: unknown) => e);
    expect(errorText(error, english)).toBe(italianRefusal.error.message);
    expect(fieldErrorsOf(error)).toEqual(italianRefusal.error.details.fieldErrors);
  });

  test('use the interface’s own words only when the server could not be reached or said nothing', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('fetch failed');
    });
    expect(errorText(await api('/api/workspaces').catch((e: unknown) => e), english)).toBe(en['errors.network']);
    vi.stubGlobal('fetch', async () => new Response('<html>Bad gateway</html>', { status: 502 }));
    expect(errorText(await api('/api/workspaces').catch((e: unknown) => e), english)).toBe(en['errors.generic']);
  });

  test('the topic API is asked for the page’s language, since it answers programs in English', async () => {
    vi.stubGlobal('document', { documentElement: { lang: 'it' } });
    const asked: Headers[] = [];
    vi.stubGlobal('fetch', async (_path: string, init: RequestInit) => {
      asked.push(new Headers(init.headers));
      return Response.json(italianRefusal, { status: 422 });
    });
    const error = await topicApi('w', '/api/topics', { body: { name: '' } }).catch((e: unknown) => e);
    expect(asked.map((headers) => headers.get('accept-language'))).toEqual(['it']);
    expect(errorText(error, english)).toBe(italianRefusal.error.message);
  });
});

/** The interface's modules: every place that can show an API failure. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'api' && dir.endsWith(`${path.sep}app`) ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('every place the interface shows an API failure', () => {
  const files = [...sourceFiles(path.join(ROOT, 'components')), ...sourceFiles(path.join(ROOT, 'app'))].map((file) => ({
    file: path.relative(ROOT, file),
    text: readFileSync(file, 'utf8'),
  }));
  // Where the envelope is unwrapped into an ApiRequestError: the only code that reads the server's fields.
  const UNWRAPPERS = ['components/api/client.ts', 'components/topics/client.ts'];

  test('says it with errorText(error, t): the server’s sentence, the page’s translator only for the fallbacks', () => {
    const calls = files.flatMap(({ file, text }) => [...text.matchAll(/\berrorText\(([^()]*(?:\([^()]*\))?[^()]*)\)/g)].map((m) => ({ file, args: m[1]! })));
    const shown = calls.filter(({ file }) => !UNWRAPPERS.includes(file));
    expect(shown.length).toBeGreaterThanOrEqual(44);
    expect(shown.filter(({ args }) => !/^[\w.]+, t$/.test(args))).toEqual([]);
  });

  test('never reads an API error’s message or field errors itself, nor picks its own words by its code', () => {
    // Pages may ask an ApiError's code to answer with Next's not-found page; they never show its English message.
    const ownReadings = files
      .filter(({ file }) => !UNWRAPPERS.includes(file))
      .flatMap(({ file, text }) =>
        [...text.matchAll(file.startsWith('components/') ? /\b(?:error|\w+\.error)\.(?:message|code|fieldErrors)\b/g : /\b(?:error|\w+\.error)\.(?:message|fieldErrors)\b/g)].map(
          (m) => `${file}: ${m[0]}`,
        ),
      );
    expect(ownReadings).toEqual([]);
  });
});
