import { z } from 'zod';
import { createTranslator, type Locale, type Translate, type Vars } from '@/lib/i18n';
import { en } from '@/lib/i18n/messages/en';
import { it } from '@/lib/i18n/messages/it';
import type { ApiError, ApiMessage, ApiMessageKey, FieldErrors, FieldProblem, MessageParams } from './errors';

const translators: Record<Locale, Translate> = { en: createTranslator(en, 'en'), it: createTranslator(it, 'it') };

type ZodWords = (issue: z.core.$ZodIssue) => string | { message: string } | undefined | null;
/** zod's own words for its built-in issues, per language (English is how zod already wrote them). */
const zodWords: Partial<Record<Locale, ZodWords>> = {};
function inZodWords(issue: z.core.$ZodIssue, locale: Exclude<Locale, 'en'>): string | undefined {
  // The locale's map reads the issue as zod raised it; a finished issue has every field it reads.
  const said = (zodWords[locale] ??= z.locales[locale]().localeError as ZodWords)(issue);
  return typeof said === 'string' ? said : said?.message;
}

/** Whether `value` is the key of a message API errors may say (a schema's message, a hint our SQL raises). */
export function isApiMessageKey(value: unknown): value is ApiMessageKey {
  return typeof value === 'string' && value.startsWith('api.') && Object.hasOwn(en, value);
}

export function renderMessage({ key, params }: ApiMessage, locale: Locale): string {
  return translators[locale](key, params && renderParams(params, locale));
}

function renderParams(params: MessageParams, locale: Locale): Vars {
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, typeof value === 'object' ? renderProblem(value, locale) : value]));
}

/**
 * One field's problem in `locale`. A zod issue whose schema gave a key as its message is ours, with the
 * issue's bounds as values ("Use at most {maximum} characters"); any other is zod's own words.
 */
export function renderProblem(problem: FieldProblem, locale: Locale): string {
  if (!('code' in problem)) return renderMessage(problem, locale);
  if (isApiMessageKey(problem.message)) {
    const { minimum, maximum, params } = problem as { minimum?: number | bigint; maximum?: number | bigint; params?: MessageParams };
    return renderMessage({ key: problem.message, params: { ...bound('minimum', minimum), ...bound('maximum', maximum), ...params } }, locale);
  }
  if (locale === 'en') return problem.message;
  return inZodWords(problem, locale) ?? problem.message;
}

const bound = (name: string, value: number | bigint | undefined) => (value === undefined ? {} : { [name]: Number(value) });

/** An ApiError's sentence in `locale`: what server actions and pages show, and what `route()` sends. */
export function errorMessage(error: ApiError, locale: Locale): string {
  return renderMessage({ key: error.key, params: error.params }, locale);
}

/** The envelope's `error` for an ApiError, every sentence in `locale`. */
export function errorBody(error: ApiError, locale: Locale): { code: string; message: string; details?: Record<string, unknown> } {
  const details = error.fieldErrors ? { ...error.details, fieldErrors: renderFieldErrors(error.fieldErrors, locale) } : error.details;
  return { code: error.code, message: errorMessage(error, locale), ...(details !== undefined ? { details } : {}) };
}

function renderFieldErrors(fieldErrors: FieldErrors, locale: Locale): Record<string, string[]> {
  return Object.fromEntries(Object.entries(fieldErrors).map(([field, problems]) => [field, problems.map((p) => renderProblem(p, locale))]));
}

/** What a 500 says: the one sentence the interface also shows when nothing better is known. */
export const internalErrorMessage = (locale: Locale) => translators[locale]('errors.generic');
