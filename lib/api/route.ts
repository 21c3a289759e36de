import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { requestLocale, type Locale } from '@/lib/i18n';
import { log } from '@/lib/log';
import { ApiError, fromDatabaseError, validate, type FieldErrors } from './errors';
import { errorBody, internalErrorMessage } from './messages';
import { serialize } from './serialize';

export interface Envelope<T> {
  success: boolean;
  data: T | null;
  error: { code: string; message: string; details?: unknown } | null;
}

export interface RouteContext<P> {
  req: Request;
  params: P;
  requestId: string;
}

type Handler<P> = (ctx: RouteContext<P>) => Promise<Response>;

/**
 * Wraps a route handler: request id, structured access log, and every thrown error turned into the
 * envelope with a precise status, its sentences in the reader's language (`requestLocale`: `people`
 * for the app's own API, `programs` for the topic-queue and agent APIs). Route files stay a few lines long.
 */
export function route<P = Record<string, never>>(fn: Handler<P>, readers: 'people' | 'programs' = 'people') {
  return async (req: Request, segment?: { params?: Promise<P> }): Promise<Response> => {
    const requestId = req.headers.get('x-request-id') ?? randomUUID();
    const started = performance.now();
    let response: Response;
    try {
      const params = (segment?.params ? await segment.params : {}) as P;
      response = await fn({ req, params, requestId });
    } catch (error) {
      response = errorResponse(error, requestLocale(req, readers), requestId);
    }
    response.headers.set('x-request-id', requestId);
    const path = new URL(req.url).pathname;
    log(response.status >= 500 ? 'error' : 'info', 'request', {
      requestId,
      method: req.method,
      path,
      status: response.status,
      ms: Math.round(performance.now() - started),
    });
    return response;
  };
}

export function errorResponse(error: unknown, locale: Locale, requestId?: string): Response {
  const apiError = error instanceof ApiError ? error : fromDatabaseError(error);
  if (!apiError) {
    log('error', 'unhandled error', { requestId, error });
    return envelopeResponse(500, { success: false, data: null, error: { code: 'internal', message: internalErrorMessage(locale) } });
  }
  return envelopeResponse(apiError.status, { success: false, data: null, error: errorBody(apiError, locale) }, apiError.headers);
}

/** Success in the envelope; `data` goes through the one camelCase serializer. */
export function ok<T>(data: T, status = 200, headers?: Record<string, string>): Response {
  return envelopeResponse(status, { success: true, data: serialize(data), error: null }, headers);
}

/**
 * Success whose data is already in its wire shape: the snake_case topic-queue contract, and a planet's
 * metrics keyed by their ids (`no_show_rate_30d`), which camelCase would rename.
 */
export function okRaw<T>(data: T, status = 200, headers?: Record<string, string>): Response {
  return envelopeResponse(status, { success: true, data, error: null }, headers);
}

function envelopeResponse(status: number, body: Envelope<unknown>, headers?: Record<string, string>) {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } });
}

/** Parses a JSON body: 400 when it is not JSON, 422 with field errors when it does not fit `schema` (or `checkInput`). */
export async function parseJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  try {
    const text = await req.text();
    body = text.length ? JSON.parse(text) : {};
  } catch {
    throw new ApiError('bad_request', 'api.request.notJson');
  }
  checkInput(body, 'body');
  return validate(schema, body);
}

export function parseQuery<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  const params = Object.fromEntries(new URL(req.url).searchParams);
  checkInput(params, 'query');
  return validate(schema, params, 'query');
}

export function parseParams<S extends z.ZodType>(params: unknown, schema: S): z.infer<S> {
  const result = schema.safeParse(params);
  if (!result.success) throw new ApiError('not_found', 'api.request.noSuchAddress');
  return result.data;
}

/** How deep JSON input may nest: far beyond any schema here, far below what recursion (zod, JSON.stringify) survives. */
const MAX_INPUT_DEPTH = 64;

/**
 * What no schema can be trusted to catch, refused for every route before its schema runs: the NUL
 * character (Postgres text and jsonb cannot hold it, so it would fail in the database as a 500), in a
 * value or a key, and nesting deeper than MAX_INPUT_DEPTH. A 422 naming each field, like a schema's.
 */
export function checkInput(value: unknown, where: 'body' | 'query'): void {
  const fieldErrors: FieldErrors = {};
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (stack.length) {
    const { value: current, path } = stack.pop()!;
    const field = path.join('.') || '_';
    if (typeof current === 'string') {
      if (current.includes('\u0000')) fieldErrors[field] = [{ key: 'api.request.nulInText' }];
    } else if (current !== null && typeof current === 'object') {
      if (path.length >= MAX_INPUT_DEPTH) {
        fieldErrors[field] = [{ key: 'api.request.tooDeep', params: { max: MAX_INPUT_DEPTH } }];
        continue;
      }
      for (const [key, child] of Object.entries(current)) {
        const shown = key.replaceAll('\u0000', '\\u0000');
        if (shown !== key) fieldErrors[[...path, shown].join('.')] = [{ key: 'api.request.nulInName' }];
        else stack.push({ value: child, path: [...path, key] });
      }
    }
  }
  const [field] = Object.keys(fieldErrors).sort();
  if (field) {
    const params = { field, problem: fieldErrors[field]![0]! };
    throw new ApiError('validation_failed', where === 'body' ? 'api.request.bodyInvalid' : 'api.request.queryInvalid', params, { fieldErrors });
  }
}
